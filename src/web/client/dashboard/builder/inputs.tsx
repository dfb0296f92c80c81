import type { ComponentChildren } from 'preact';

/** The builder's small controls (its text controls are ui/controls.tsx's TextInput): each a native control with its own label. */

/** The option a select's value names (a select only offers its options: none is a bug, and changes nothing). */
const chosen = <T extends string>(options: ReadonlyArray<{ value: T }>, value: string): T | undefined =>
  options.find((option) => option.value === value)?.value;

export function Choice<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
  hint,
  error,
}: {
  id: string;
  label: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T) => void;
  /** Words on what its choices mean, between its label and the control (as TextInput's), tied to it. */
  hint?: string;
  error?: string;
}) {
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
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
      <select
        id={id}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described}
        onChange={(event) => onChange(chosen(options, event.currentTarget.value) ?? value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value} selected={option.value === value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="builder__section">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** A number typed in a control: undefined when blank or not a number. */
export const numberOf = (text: string): number | undefined =>
  text.trim() === '' || !Number.isFinite(Number(text)) ? undefined : Number(text);
