/**
 * The form as its public view gives it (API.md §5, §5.3 "Public view", §5.4): the one
 * description of a form's shape that every side reads. The server's schemas
 * (features/forms/schemas.ts) are held equal to these types by a type-level test
 * (features/forms/schemas.types.test.ts); the validator, the page's components, the hosted
 * page's script and the dashboard take their types from here.
 *
 * Types only: nothing here exists at run time, so the browser's bundles pay nothing for it.
 */

export type FieldType =
  | 'text'
  | 'email'
  | 'textarea'
  | 'select'
  | 'number'
  | 'checkbox'
  | 'date'
  | 'url'
  | 'phone'
  | 'hidden'
  | 'rating'
  | 'file';

export type FormStatus = 'draft' | 'live' | 'active' | 'disabled' | 'archived';

/** A select's option: its value, or a value shown under another label. */
export type FieldOption = string | { value: string; label: string };

/**
 * How a select shows on the hosted page (the builder offers it to the author as `display`):
 * without it, up to `TILE_LIMIT` (components/form/fields.tsx: 7) options are radio tiles (one
 * answer) or checkbox tiles (several), more a dropdown (one) or a scrolling list of checkboxes
 * (several); `"dropdown"` asks for the dropdown (the list) whatever the count, `"tiles"` for
 * tiles whatever the count. Never a Ctrl-click list box.
 */
export type ChoiceDisplay = 'tiles' | 'dropdown';

/** A field as anyone may see it (API.md §5.1): the owner's view adds `pii` and `piiMode`. */
export interface FormField {
  id: string;
  type: FieldType;
  label: string;
  required?: boolean;
  placeholder?: string;
  help?: string;
  options?: FieldOption[];
  multiple?: boolean;
  /** A select only: tiles or a dropdown (`ChoiceDisplay`). */
  display?: ChoiceDisplay;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  min?: number;
  max?: number;
  integer?: boolean;
  /** A file field only (API.md §12): how many files one answer may hold (1..20, default 1). */
  maxFiles?: number;
  /** A file field only: the largest file in bytes (default 10 MiB, at most the instance's FILE_MAX_BYTES). */
  maxFileSize?: number;
  /** A file field only: extensions (`.pdf`) and media types (`image/*`, `application/pdf`) a file may have; any when absent. */
  accept?: string[];
}

/** A stored file as an answer holds it (API.md §12): `type` is the one read from its bytes. */
export interface FileDescriptor {
  id: string;
  name: string;
  type: string;
  size: number;
  sha256: string;
  /** A signed link that needs no credential and expires (outputs only). */
  url?: string;
}

/** How an answer marked personal is kept (API.md §6.1). */
export type PiiMode = 'plain' | 'masked' | 'hashed' | 'encrypted' | 'dropped';

/** A field as its owner writes and reads it (the dashboard's builder): the public field and its PII handling. */
export interface OwnerField extends FormField {
  pii?: boolean;
  piiMode?: PiiMode;
}

/** `ui` (API.md §5.4, §11.1): the members the page honours; others are kept as given. */
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
  embedOrigins?: string[];
  /** false: no "Powered by Intake" line at the foot of the hosted page. */
  branding?: boolean;
}

export type ConditionOp =
  | 'equals'
  | 'notEquals'
  | 'contains'
  | 'notContains'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'in'
  | 'isEmpty'
  | 'isNotEmpty';

export type ConditionValue = string | number | boolean | null | Array<string | number | boolean>;

/** One comparison with one field's answer. */
export interface ConditionLeaf {
  field: string;
  op: ConditionOp;
  value?: ConditionValue;
}

/** `{field, op, value?}`, or every (`all`) or any (`any`) of further conditions (API.md §5.4). */
export type Condition = ConditionLeaf | { all: Condition[] } | { any: Condition[] };

export interface LogicRule {
  when: Condition;
  show?: string[];
  hide?: string[];
}

export interface Logic {
  rules: LogicRule[];
}

export type CaptchaProvider = 'turnstile' | 'hcaptcha' | 'recaptcha';

/** The spam protection anyone may know of: the honeypot's name, the CAPTCHA's site key (its secret stays on the server). */
export interface PublicSpamProtection {
  honeypot: { field: string } | null;
  captcha: { provider: CaptchaProvider; siteKey: string } | null;
}

/** Who may answer, and when (API.md §15 `access`): one response per browser, or per e-mail address. */
export type OncePer = 'browser' | 'email';

/**
 * Why a form takes no responses now: before `opensAt`, after `closesAt`, or `maxSubmissions`
 * accepted submissions reached.
 */
export type ClosedReason = 'not_yet_open' | 'closed' | 'full';

/**
 * The rules of a form's `access` member (API.md §15), as its owner writes and reads them.
 * Times are ISO 8601 date-times; `emailField` names the form's e-mail question that `oncePer:
 * "email"` counts by.
 */
export interface AccessRules {
  opensAt?: string;
  closesAt?: string;
  maxSubmissions?: number;
  closedMessage?: string;
  oncePer?: OncePer;
  emailField?: string;
}

/**
 * `access` in a POST or PUT body: `password` is write-only (stored hashed). Left out, the stored
 * password stays; `null` removes it. `hasPassword` is read-only and ignored, so that a form read
 * can be sent back as it is.
 */
export interface FormAccessInput extends AccessRules {
  password?: string | null;
  hasPassword?: boolean;
}

/** `access` as its owner reads it: the rules, and whether a password is set (never the password). */
export interface FormAccess extends AccessRules {
  hasPassword: boolean;
}

/**
 * What a renderer needs of a form's `access` (API.md §15): whether it is open now and why not,
 * the owner's closed message, whether to ask for a password; never the password or its hash.
 */
export interface PublicAccess {
  open: boolean;
  /** Set when `open` is false. */
  closedReason?: ClosedReason;
  closedMessage?: string;
  opensAt?: string;
  closesAt?: string;
  oncePer?: OncePer;
  passwordRequired: boolean;
}

/** The public view of a form (`GET /v1/forms/{formId}/public`, forms/presenter.ts `presentPublicForm`). */
export interface PublicForm {
  id: string;
  title: string;
  environment: string;
  status: FormStatus;
  version: number;
  fields: FormField[];
  ui: FormUi;
  logic: Logic;
  spamProtection: PublicSpamProtection;
  /** Open or closed, and why; whether a password is asked for (API.md §15). */
  access: PublicAccess;
  /** The language the texts are in (API.md §13): `?lang=` when the form has it, else `ui.language` (default `en`). */
  language: string;
  /** Every language the form is written in: `ui.language` first, then its translations'. */
  languages: string[];
}

/** A field's texts in another language (API.md §13); an option's label by its value. */
export interface FieldTranslation {
  label?: string;
  help?: string;
  placeholder?: string;
  options?: Record<string, string>;
}

/** A form's texts in one more language; a text left out is shown in the form's own language. */
export interface Translation {
  title?: string;
  description?: string;
  submitLabel?: string;
  successMessage?: string;
  closedMessage?: string;
  fields?: Record<string, FieldTranslation>;
  autoResponse?: { subject?: string; body?: string };
}

/** A form's translations by BCP 47 tag (API.md §13). */
export type Translations = Record<string, Translation>;

/**
 * What a page of the form is drawn from: the public view's members that show. The dashboard's
 * builder draws its preview from a form being edited, which has no version or status yet.
 */
export type PageForm = Pick<PublicForm, 'id' | 'title' | 'fields' | 'ui' | 'logic' | 'spamProtection'>;

/** One failing value, as a problem's `errors[]` names it (API.md §1). */
export interface FieldError {
  field: string;
  code: string;
  message: string;
  /** The message in the request's language (API.md §13), when it has `Accept-Language` or `?lang=`. */
  localizedMessage?: string;
}
