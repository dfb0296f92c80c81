import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * The dashboard's form controls: a label that names its control, a hint and an error tied to
 * it with aria-describedby, the error read out when it appears. Every API error reaches a
 * person as one of these (next to what caused it) or as a Notice.
 */

interface InputProps {
  id: string;
  label: string;
  value: string | number | undefined;
  onInput: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'datetime-local';
  autocomplete?: string;
  required?: boolean;
  /** A textarea instead of one line. */
  multiline?: boolean;
  error?: string;
  hint?: string;
}

/** One text control of any view (sign-in, account, the builder): its label, hint and error tied to it. */
export function TextInput({
  id,
  label,
  value,
  onInput,
  type = 'text',
  autocomplete,
  required,
  multiline,
  error,
  hint,
}: InputProps) {
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    value: value ?? '',
    required,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': described,
  };
  return (
    <div class={`control-row${error ? ' control-row--invalid' : ''}`}>
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
      {multiline ? (
        <textarea {...common} rows={4} onInput={(event) => onInput(event.currentTarget.value)} />
      ) : (
        <input
          {...common}
          // Preact types each input type apart, and no single branch takes them all (as in fields.tsx)
          type={type as 'text'}
          step={type === 'number' ? 'any' : undefined}
          autocomplete={autocomplete}
          onInput={(event) => onInput(event.currentTarget.value)}
        />
      )}
    </div>
  );
}

/**
 * A message about the whole view: `alert` for what went wrong (read out and focused when it
 * appears, and again when `announce` changes: a new error, not a re-render), `status` for news.
 */
export function Notice({
  kind,
  announce,
  children,
}: {
  kind: 'error' | 'success' | 'info';
  announce?: unknown;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // A live region that appears already holding its words is often not read out: news is put
  // into it a frame after it is in the page. (An error is focused, which reads it anyway.)
  const [filled, setFilled] = useState(kind === 'error');
  useEffect(() => {
    if (kind === 'error') ref.current?.focus();
    else {
      const frame = requestAnimationFrame(() => setFilled(true));
      return () => cancelAnimationFrame(frame);
    }
  }, [kind, announce]);
  return (
    <div
      ref={ref}
      class={`notice notice--${kind}`}
      role={kind === 'error' ? 'alert' : 'status'}
      tabIndex={kind === 'error' ? -1 : undefined}
    >
      {filled ? children : null}
    </div>
  );
}

/** Moves focus to an element that is not a control (a heading, a message): it is made focusable by script only. */
export function focusOn(element: HTMLElement | null | undefined): void {
  if (!element) return;
  if (!element.matches('a[href], button, input, select, textarea')) element.tabIndex = -1;
  element.focus();
}

/** Sets the document's title for a view ("… – Intake"), with the view's first paint (a layout effect: never after it). */
export function useTitle(title: string): void {
  useLayoutEffect(() => {
    document.title = `${title} – Intake`;
  }, [title]);
}

/** A checkbox with its label after it (the dashboard's one way to write one). */
export function Tick({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div class="tick">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
      <label for={id}>{label}</label>
    </div>
  );
}
