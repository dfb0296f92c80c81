import type { ApiError } from '../api/client.js';
import { TextInput, Tick } from '../ui/controls.js';
import { type Draft, embedOriginsOf, embedOriginsText } from './draft.js';
import { Choice, Section } from './inputs.js';
import type { Ui } from './model.js';
import { AutoResponseEditor, CaptchaEditor, SpamRulesEditor } from './protection.js';

/**
 * The builder's sections beyond its fields: how the page looks (the Design tab), and in the
 * Settings tab where it leads and who may embed it (`ui`), and what is kept, refused and mailed
 * (PII, spam, notifications, the automatic reply, retention). The API's refusals are shown by
 * the control they name.
 */

/** The Design tab: how the page looks and what its buttons and thanks say. */
export function DesignSection({
  ui,
  changeUi,
  error,
}: {
  ui: Ui;
  changeUi: (change: Partial<Ui>) => void;
  error: ApiError | undefined;
}) {
  return (
    <Section title="Design">
      <Choice
        id="ui-layout"
        label="Layout"
        value={ui.layout ?? 'one-by-one'}
        options={[
          { value: 'one-by-one', label: 'One question a page' },
          { value: 'classic', label: 'Every field on one page' },
        ]}
        onChange={(layout) => changeUi({ layout })}
      />
      <Choice
        id="ui-theme"
        label="Theme"
        value={ui.theme ?? 'auto'}
        options={[
          { value: 'auto', label: 'As the visitor’s system' },
          { value: 'light', label: 'Light' },
          { value: 'dark', label: 'Dark' },
        ]}
        onChange={(theme) => changeUi({ theme })}
      />
      <Choice
        id="ui-progress"
        label="Progress"
        value={ui.progress ?? 'steps'}
        options={[
          { value: 'steps', label: '“Question 2 of 5”' },
          { value: 'bar', label: 'A bar' },
          { value: 'none', label: 'None' },
        ]}
        onChange={(progress) => changeUi({ progress })}
      />
      <div class="accent-row">
        <TextInput
          id="ui-accent"
          label="Accent colour (#rrggbb)"
          hint="The buttons’ and the focus ring’s colour. Blank: Intake’s blue."
          value={ui.accentColor}
          onInput={(accentColor) => changeUi({ accentColor: accentColor || undefined })}
          error={error?.about('ui.accentColor')}
        />
        <div class="control-row">
          <label for="ui-accent-picker">Pick it</label>
          <input
            id="ui-accent-picker"
            type="color"
            value={/^#[0-9a-f]{6}$/i.test(ui.accentColor ?? '') ? ui.accentColor : '#2b59c3'}
            onInput={(event) => changeUi({ accentColor: event.currentTarget.value })}
          />
        </div>
      </div>
      <TextInput
        id="ui-submit"
        label="Submit button"
        value={ui.submitLabel}
        hint="Submit, when blank."
        onInput={(submitLabel) => changeUi({ submitLabel: submitLabel || undefined })}
      />
      <TextInput
        id="ui-success"
        label="Thank-you message"
        value={ui.successMessage}
        hint="Thank you, when blank."
        onInput={(successMessage) => changeUi({ successMessage: successMessage || undefined })}
      />
      <Tick
        id="ui-branding"
        label="Show “Powered by Intake” at the foot of the page"
        checked={ui.branding !== false}
        onChange={(shown) => changeUi({ branding: shown ? undefined : false })}
      />
    </Section>
  );
}

/** Part of the Settings tab: where the page leads after sending, its language, the sites that may embed it. */
export function PageSection({
  ui,
  changeUi,
  error,
}: {
  ui: Ui;
  changeUi: (change: Partial<Ui>) => void;
  error: ApiError | undefined;
}) {
  return (
    <Section title="Page">
      <TextInput
        id="ui-redirect"
        label="After sending, go to (a web address)"
        hint="Blank: the thank-you message is shown."
        type="url"
        value={ui.redirectUrl}
        onInput={(redirectUrl) => changeUi({ redirectUrl: redirectUrl || undefined })}
        error={error?.about('ui.redirectUrl')}
      />
      <TextInput
        id="ui-language"
        label="Language (such as en, fr, ar)"
        value={ui.language}
        onInput={(language) => changeUi({ language: language || undefined })}
      />
      <TextInput
        id="ui-embed-origins"
        label="Sites that may embed it (one origin a line)"
        hint="Such as https://www.example.com. Blank: any site may; “none”: no site."
        multiline
        value={embedOriginsText(ui.embedOrigins)}
        onInput={(text) => changeUi({ embedOrigins: embedOriginsOf(text) })}
        error={error?.errors.find((problem) => problem.field.startsWith('ui.embedOrigins'))?.message}
      />
    </Section>
  );
}

export function PrivacySection({
  draft,
  change,
  error,
}: {
  draft: Draft;
  change: (change: Partial<Draft>) => void;
  error: ApiError | undefined;
}) {
  return (
    <Section title="Privacy, spam, mail">
      <Choice
        id="storage-pii"
        label="Personal data, by default"
        value={draft.piiDefault}
        options={[
          { value: 'plain', label: 'Stored as given' },
          { value: 'masked', label: 'Masked' },
          { value: 'hashed', label: 'Hashed' },
          { value: 'encrypted', label: 'Encrypted' },
          { value: 'dropped', label: 'Not stored' },
        ]}
        onChange={(piiDefault) => change({ piiDefault })}
      />
      <Tick
        id="spam-honeypot"
        label="Catch bots with a hidden field (honeypot)"
        checked={draft.honeypot}
        onChange={(honeypot) => change({ honeypot })}
      />
      <CaptchaEditor captcha={draft.captcha} onChange={(captcha) => change({ captcha })} />
      <SpamRulesEditor
        rules={draft.spamRules}
        fields={draft.fields}
        onChange={(spamRules) => change({ spamRules })}
      />
      <Choice
        id="spam-action"
        label="What happens to spam"
        value={draft.spamAction}
        options={[
          { value: 'reject', label: 'Refused' },
          { value: 'flag', label: 'Stored, flagged' },
          { value: 'quarantine', label: 'Stored apart (quarantine)' },
        ]}
        onChange={(spamAction) => change({ spamAction })}
      />
      <AutoResponseEditor
        reply={draft.autoResponse}
        fields={draft.fields}
        onChange={(autoResponse) => change({ autoResponse })}
      />
      <Tick
        id="notify"
        label="Mail me each new response"
        checked={draft.notify}
        onChange={(notify) => change({ notify })}
      />
      <TextInput
        id="notify-to"
        label="To (addresses, comma-separated)"
        value={draft.notifyTo}
        onInput={(notifyTo) => change({ notifyTo })}
        error={error?.about('notifications.email.to')}
      />
      <TextInput
        id="retention"
        label="Delete responses after (days)"
        type="number"
        hint="Kept for good, when blank."
        value={draft.retentionDays}
        onInput={(retentionDays) => change({ retentionDays })}
        error={error?.about('retention.days')}
      />
    </Section>
  );
}
