import { useState } from 'preact/hooks';
import { useAction } from '../ui/action.js';
import { Notice, TextInput, Tick } from '../ui/controls.js';
import { CopyButton } from '../ui/copy.js';
import { EVENTS, FORMATS, newSecret, type Webhook, type WebhookEvent, type WebhookFormat } from './model.js';

/**
 * A webhook's fields, to add one or to edit one: URL, event, format and secret (a generated
 * `whsec_` one offered, shown to copy: the API never gives it back). Each refusal of the server
 * is shown next to the field it names.
 */

export interface WebhookValues {
  url: string;
  event: WebhookEvent;
  format: WebhookFormat;
  /** Empty: none (adding), or the current one kept (editing). */
  secret: string;
  /** Editing only: the current secret removed (deliveries go unsigned). */
  removeSecret: boolean;
}

const blank: WebhookValues = {
  url: '',
  event: 'response.created',
  format: 'legacy',
  secret: '',
  removeSecret: false,
};

/** A known one of `options` (the API types a stored event and format as any string). */
const known = <T extends string>(options: ReadonlyArray<{ value: T }>, value: string, otherwise: T): T =>
  options.find((option) => option.value === value)?.value ?? otherwise;

const valuesOf = (webhook: Webhook): WebhookValues => ({
  url: webhook.url,
  event: known(EVENTS, webhook.event, blank.event),
  format: known(FORMATS, webhook.format, blank.format),
  secret: '',
  removeSecret: false,
});

function Select<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
  error,
}: {
  id: string;
  label: string;
  value: T;
  /** Each option's words, shown under the select for the one chosen. */
  options: ReadonlyArray<{ value: T; label: string; words: string }>;
  onChange: (value: T) => void;
  error?: string;
}) {
  const words = options.find((option) => option.value === value)?.words;
  const described = [words && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`control-row${error ? ' control-row--invalid' : ''}`}>
      <label for={id}>{label}</label>
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
        onChange={(event) => onChange(known(options, event.currentTarget.value, value))}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value} selected={option.value === value}>
            {option.label}
          </option>
        ))}
      </select>
      {words && (
        <p class="hint" id={`${id}-hint`}>
          {words}
        </p>
      )}
    </div>
  );
}

export function WebhookEditor({
  id,
  webhook,
  submitLabel,
  save,
  cancel,
}: {
  /** Prefix of the controls' ids, unique on the page. */
  id: string;
  /** The webhook edited; none to add one. */
  webhook?: Webhook;
  submitLabel: string;
  /** Sends the values; throws the API's refusal. */
  save: (values: WebhookValues) => Promise<void>;
  cancel?: () => void;
}) {
  const [values, setValues] = useState<WebhookValues>(() => (webhook ? valuesOf(webhook) : blank));
  const [missing, setMissing] = useState(false);
  // a refusal is read out and focused by the Notice; each field the server named says its own error
  const { busy, error, run, fail } = useAction();
  const set = (part: Partial<WebhookValues>) => setValues((current) => ({ ...current, ...part }));

  const submit = async (event: Event) => {
    event.preventDefault();
    const empty = values.url.trim() === '';
    setMissing(empty);
    if (empty) {
      fail(undefined);
      document.getElementById(`${id}-url`)?.focus();
      return;
    }
    await run(async () => {
      await save({ ...values, url: values.url.trim() });
      if (!webhook) setValues(blank);
    });
  };

  const named = error && ['url', 'event', 'format', 'secret'].some((field) => error.about(field));
  const secretHint = webhook?.hasSecret
    ? 'Leave it blank to keep the current secret. A new one replaces it.'
    : 'Optional. With a secret, each delivery carries a webhook-signature header your receiver can check.';
  return (
    <form class="stack hook-editor" onSubmit={submit} noValidate>
      {error && (
        <Notice kind="error" announce={error}>
          {named ? 'Please correct what is marked below.' : error.message}
        </Notice>
      )}
      <TextInput
        id={`${id}-url`}
        label="URL"
        type="url"
        required
        hint="Where Intake POSTs each event: an http:// or https:// address."
        value={values.url}
        onInput={(url) => set({ url })}
        error={missing ? 'Enter the URL that receives the events' : error?.about('url')}
      />
      <Select
        id={`${id}-event`}
        label="Event"
        value={values.event}
        options={EVENTS}
        onChange={(value) => set({ event: value })}
        error={error?.about('event')}
      />
      <Select
        id={`${id}-format`}
        label="Format"
        value={values.format}
        options={FORMATS}
        onChange={(value) => set({ format: value })}
        error={error?.about('format')}
      />
      <div class="hook-editor__secret">
        <TextInput
          id={`${id}-secret`}
          label="Secret"
          autocomplete="off"
          hint={secretHint}
          value={values.secret}
          onInput={(secret) => set({ secret, removeSecret: false })}
          error={error?.about('secret')}
        />
        <p class="actions">
          <button
            class="button button--small"
            type="button"
            onClick={() => set({ secret: newSecret(), removeSecret: false })}
          >
            Generate a secret
          </button>
          {values.secret && <CopyButton text={values.secret} label="Copy secret" />}
        </p>
        {values.secret && (
          <p class="hint">Copy it into your receiver now: once saved, Intake never shows it again.</p>
        )}
        {webhook?.hasSecret && (
          <Tick
            id={`${id}-remove-secret`}
            label="Remove the secret (deliveries go unsigned)"
            checked={values.removeSecret}
            onChange={(removeSecret) => set({ removeSecret, secret: '' })}
          />
        )}
      </div>
      <p class="actions">
        <button class="button button--primary" type="submit" disabled={busy}>
          {submitLabel}
        </button>
        {cancel && (
          <button class="button" type="button" onClick={cancel}>
            Cancel
          </button>
        )}
      </p>
    </form>
  );
}
