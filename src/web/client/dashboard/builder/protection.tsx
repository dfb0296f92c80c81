import { AUTO_RESPONSES_PER_RECIPIENT_PER_HOUR } from '../../../../shared/auto-response.js';
import { TextInput, Tick } from '../ui/controls.js';
import { Choice } from './inputs.js';
import { type FieldInput, subjectFields } from './model.js';

/**
 * Spam protection beyond the honeypot (API.md §5.4): a CAPTCHA (its secret write-only: blank
 * keeps the stored one) and rules that mark an answer as spam; and the automatic reply.
 */

export interface CaptchaDraft {
  provider: '' | 'turnstile' | 'hcaptcha' | 'recaptcha';
  siteKey: string;
  /** Typed only to set a new one: the stored secret is never shown. */
  secret: string;
  hasSecret: boolean;
  minScore: string;
}

export interface SpamRuleDraft {
  field: string;
  op: 'contains' | 'matches' | 'equals';
  value: string;
}

export interface AutoResponseDraft {
  enabled: boolean;
  emailField: string;
  subject: string;
  body: string;
}

export function CaptchaEditor({
  captcha,
  onChange,
}: {
  captcha: CaptchaDraft;
  onChange: (next: CaptchaDraft) => void;
}) {
  const set = (partial: Partial<CaptchaDraft>) => onChange({ ...captcha, ...partial });
  return (
    <>
      <Choice
        id="captcha-provider"
        label="CAPTCHA"
        value={captcha.provider}
        options={[
          { value: '', label: 'None' },
          { value: 'turnstile', label: 'Cloudflare Turnstile' },
          { value: 'hcaptcha', label: 'hCaptcha' },
          { value: 'recaptcha', label: 'Google reCAPTCHA (checkbox)' },
        ]}
        onChange={(provider) => set({ provider })}
      />
      {captcha.provider && (
        <>
          <TextInput
            id="captcha-site-key"
            label="Site key"
            value={captcha.siteKey}
            onInput={(siteKey) => set({ siteKey })}
          />
          <TextInput
            id="captcha-secret"
            label="Secret key"
            hint={
              captcha.hasSecret
                ? 'Stored, and never shown again: leave it blank to keep it.'
                : 'Kept on the server to check each answer, never shown again.'
            }
            value={captcha.secret}
            onInput={(secret) => set({ secret })}
          />
          <TextInput
            id="captcha-min-score"
            label="Lowest score accepted (scoring keys only, 0 to 1)"
            type="number"
            value={captcha.minScore}
            onInput={(minScore) => set({ minScore })}
          />
        </>
      )}
    </>
  );
}

export function SpamRulesEditor({
  rules,
  fields,
  onChange,
}: {
  rules: SpamRuleDraft[];
  fields: readonly FieldInput[];
  onChange: (rules: SpamRuleDraft[]) => void;
}) {
  // a rule reads an answer as text: a file field's answer is files, no text to judge (one stored so stays shown)
  const judged = (field: FieldInput, rule?: SpamRuleDraft) =>
    field.type !== 'file' || field.id === rule?.field;
  const choicesFor = (rule: SpamRuleDraft) =>
    fields
      .filter((field) => judged(field, rule))
      .map((field) => ({ value: field.id, label: field.label || field.id }));
  const first = fields.find((field) => judged(field));
  const update = (index: number, partial: Partial<SpamRuleDraft>) =>
    onChange(rules.map((rule, i) => (i === index ? { ...rule, ...partial } : rule)));
  return (
    <>
      {rules.map((rule, index) => (
        <fieldset class="condition" key={index}>
          <legend class="visually-hidden">Spam rule {index + 1}</legend>
          <Choice
            id={`spam-${index}-field`}
            label="Answer to"
            value={rule.field}
            options={choicesFor(rule)}
            onChange={(field) => update(index, { field })}
          />
          <Choice
            id={`spam-${index}-op`}
            label="Spam when it"
            value={rule.op}
            options={[
              { value: 'contains', label: 'contains' },
              { value: 'equals', label: 'is exactly' },
              { value: 'matches', label: 'matches the pattern' },
            ]}
            onChange={(op) => update(index, { op })}
          />
          <TextInput
            id={`spam-${index}-value`}
            label="Words or pattern"
            value={rule.value}
            onInput={(value) => update(index, { value })}
          />
          <button
            class="button button--small"
            type="button"
            onClick={() => onChange(rules.filter((_, i) => i !== index))}
          >
            Remove spam rule {index + 1}
          </button>
        </fieldset>
      ))}
      {first && (
        <p>
          <button
            class="button"
            type="button"
            onClick={() => onChange([...rules, { field: first.id, op: 'contains', value: '' }])}
          >
            Add spam rule
          </button>
        </p>
      )}
    </>
  );
}

/** What the subject's placeholders may be: the answers nobody types, this form's named. */
function subjectHint(fields: readonly FieldInput[]): string {
  const allowed = subjectFields(fields).map((field) => `{{${field.id}}}`);
  const here = allowed.length > 0 ? ` (here: ${allowed.join(', ')})` : ' (this form has none)';
  return `{{fieldId}} is replaced only by the answer to a choice, yes-or-no, number, rating or date field${here}. Other answers are the respondent's own words: they go into the message, never the subject.`;
}

export function AutoResponseEditor({
  reply,
  fields,
  onChange,
}: {
  reply: AutoResponseDraft;
  fields: readonly FieldInput[];
  onChange: (next: AutoResponseDraft) => void;
}) {
  const emails = fields.filter((field) => field.type === 'email');
  const set = (partial: Partial<AutoResponseDraft>) => onChange({ ...reply, ...partial });
  if (emails.length === 0)
    return (
      <p class="muted">An automatic reply goes to an answer's e-mail address: add an e-mail field first.</p>
    );
  return (
    <>
      <Tick
        id="auto-enabled"
        label="Reply to each respondent automatically"
        checked={reply.enabled}
        onChange={(enabled) => set({ enabled })}
      />
      <Choice
        id="auto-field"
        label="To the address in"
        value={reply.emailField || (emails[0]?.id ?? '')}
        options={emails.map((field) => ({ value: field.id, label: field.label || field.id }))}
        onChange={(emailField) => set({ emailField })}
      />
      <TextInput
        id="auto-subject"
        label="Subject"
        hint={subjectHint(fields)}
        value={reply.subject}
        onInput={(subject) => set({ subject })}
      />
      <TextInput
        id="auto-body"
        label="Message"
        hint={`{{fieldId}} is replaced with that answer, such as {{name}}. One mailbox gets at most ${AUTO_RESPONSES_PER_RECIPIENT_PER_HOUR} automatic replies an hour, from all forms together.`}
        multiline
        value={reply.body}
        onInput={(body) => set({ body })}
      />
    </>
  );
}
