/**
 * What the form components render, spelled out here rather than imported from the forms
 * feature: the components are shared with the browser's code (web/client), which may import
 * only web/components. The shapes are those of the public view (forms/presenter.ts
 * `presentPublicForm`), which the server hands in as they are.
 */

export type FieldOption = string | { value: string; label: string };

export interface FormField {
  id: string;
  type: string;
  label: string;
  required?: boolean;
  placeholder?: string;
  help?: string;
  options?: readonly FieldOption[];
  multiple?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  min?: number;
  max?: number;
  integer?: boolean;
}

export interface FormUi {
  theme?: 'auto' | 'light' | 'dark';
  progress?: 'steps' | 'bar' | 'none';
  layout?: 'one-by-one' | 'classic';
  submitLabel?: string;
  successMessage?: string;
  redirectUrl?: string;
  description?: string;
  language?: string;
  accentColor?: string;
  embedOrigins?: readonly string[];
  [member: string]: unknown;
}

export type FormCondition =
  | { field: string; op: string; value?: unknown }
  | { all: FormCondition[] }
  | { any: FormCondition[] };

export interface FormLogic {
  rules: ReadonlyArray<{ when: FormCondition; show?: readonly string[]; hide?: readonly string[] }>;
}

/** The public view of a form: what anyone may see of it. */
export interface PublicForm {
  id: string;
  title: string;
  fields: readonly FormField[];
  ui: FormUi;
  logic: FormLogic;
  spamProtection: {
    honeypot: { field: string } | null;
    /** A CAPTCHA the page shows its provider's widget for (its secret stays on the server). */
    captcha?: { provider: string; siteKey: string } | null;
  };
}

/** Answers as a page keeps them between posts: text, lists (multiple select), booleans, numbers. */
export type PageAnswers = Readonly<Record<string, unknown>>;

/** A failing answer, as a problem's `errors[]` names it. */
export interface PageError {
  field: string;
  message: string;
}

export const optionValue = (option: FieldOption): string =>
  typeof option === 'string' ? option : option.value;
export const optionLabel = (option: FieldOption): string =>
  typeof option === 'string' ? option : option.label;

/**
 * The element id of a field's control (the error summary links to it). The texts tied to it are
 * `help-{id}`, `when-{id}`, `error-{id}`, `hint-{id}`: each kind has a prefix of its own, so no
 * field id makes one kind's id equal another's (field ids may contain `-`).
 */
export const controlId = (fieldId: string): string => `field-${fieldId}`;
