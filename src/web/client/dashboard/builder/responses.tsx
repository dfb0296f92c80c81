import { useState } from 'preact/hooks';
import type { ApiError } from '../api/client.js';
import { TextInput } from '../ui/controls.js';
import { type AccessDraft, timeZoneName } from './access.js';
import { useFocusAfterRender } from './focus-after.js';
import { Choice, Section } from './inputs.js';
import type { FieldInput } from './model.js';

/**
 * The Settings tab's "Responses" section (API.md §15 `access`): when the form opens and closes
 * (in the person's own time zone), how many responses it takes, what its closed page says, one
 * response per browser or e-mail address, and a password (write-only: set, changed or removed,
 * never shown). The API's refusals (`access.closesAt`…) are shown by the control they name.
 */
export function ResponsesSection({
  access,
  fields,
  onChange,
  error,
}: {
  access: AccessDraft;
  fields: readonly FieldInput[];
  onChange: (access: AccessDraft) => void;
  error: ApiError | undefined;
}) {
  const set = (partial: Partial<AccessDraft>) => onChange({ ...access, ...partial });
  const about = (member: string) => error?.about(`access.${member}`);
  const emailFields = fields.filter((field) => field.type === 'email');
  const zone = timeZoneName();
  return (
    <Section title="Responses">
      <div class="when-row">
        <TextInput
          id="access-opens-at"
          label={`Opens at (your time: ${zone})`}
          type="datetime-local"
          hint="Blank: open as soon as it is live."
          value={access.opensAt}
          onInput={(opensAt) => set({ opensAt })}
          error={about('opensAt')}
        />
        <TextInput
          id="access-closes-at"
          label={`Closes at (your time: ${zone})`}
          type="datetime-local"
          hint="Blank: no closing date."
          value={access.closesAt}
          onInput={(closesAt) => set({ closesAt })}
          error={about('closesAt')}
        />
      </div>
      <TextInput
        id="access-max"
        label="Responses it takes, at most"
        type="number"
        hint="It closes once this many are accepted. Blank: no limit."
        value={access.maxSubmissions}
        onInput={(maxSubmissions) => set({ maxSubmissions })}
        error={about('maxSubmissions')}
      />
      <TextInput
        id="access-closed-message"
        label="What the page says when it is closed"
        hint="Blank: “This form is closed.” in the page’s language."
        multiline
        value={access.closedMessage}
        onInput={(closedMessage) => set({ closedMessage })}
        error={about('closedMessage')}
      />
      <Choice
        id="access-once-per"
        label="One response per"
        hint="Browser: remembered in a cookie, so another browser may answer again. E-mail address: one per address given."
        value={access.oncePer}
        options={[
          { value: '', label: 'Nobody (no limit)' },
          { value: 'browser', label: 'Browser' },
          { value: 'email', label: 'E-mail address' },
        ]}
        onChange={(oncePer) =>
          set({
            oncePer,
            emailField:
              oncePer === 'email' && !access.emailField
                ? ((emailFields.find((field) => field.required) ?? emailFields[0])?.id ?? '')
                : access.emailField,
          })
        }
        error={about('oncePer')}
      />
      {access.oncePer === 'email' &&
        (emailFields.length > 0 ? (
          <Choice
            id="access-email-field"
            label="The e-mail question counted by"
            hint="It must be required, and not shown or hidden by the logic: every response then has an address."
            value={access.emailField}
            options={[
              ...(emailFields.some((field) => field.id === access.emailField)
                ? []
                : [
                    {
                      value: access.emailField,
                      label: access.emailField ? `${access.emailField} (gone)` : 'Choose one',
                    },
                  ]),
              ...emailFields.map((field) => ({
                value: field.id,
                label: `${field.label || field.id}${field.required ? '' : ' (not required)'}`,
              })),
            ]}
            onChange={(emailField) => set({ emailField })}
            error={about('emailField')}
          />
        ) : (
          <p class="error" id="access-email-field-error">
            {about('emailField') ?? 'The form has no e-mail question: add a required one in the Build tab.'}
          </p>
        ))}
      <PasswordControl access={access} set={set} error={about('password')} />
    </Section>
  );
}

/**
 * The form's password: typed to set one; once stored, only "A password is set" with Change and
 * Remove (focus follows to what each draws, so the keyboard never falls back to the page's top).
 */
function PasswordControl({
  access,
  set,
  error,
}: {
  access: AccessDraft;
  set: (partial: Partial<AccessDraft>) => void;
  error: string | undefined;
}) {
  const [changing, setChanging] = useState(false);
  const focusAfter = useFocusAfterRender();
  if (access.hasPassword && access.removePassword)
    return (
      <div class="control-row">
        <p id="access-password-state">The password is removed when you save: anyone may open the form.</p>
        <p class="actions">
          <button
            id="access-password-keep"
            class="button button--small"
            type="button"
            onClick={() => {
              focusAfter('access-password-change');
              set({ removePassword: false });
            }}
          >
            Keep the password
          </button>
        </p>
      </div>
    );
  if (access.hasPassword && !changing)
    return (
      <div class="control-row">
        <p id="access-password-state">A password is set: the page asks for it before the form.</p>
        {error && (
          <p class="error" id="access-password-error">
            {error}
          </p>
        )}
        <p class="actions">
          <button
            id="access-password-change"
            class="button button--small"
            type="button"
            aria-describedby="access-password-state"
            onClick={() => {
              focusAfter('access-password');
              setChanging(true);
            }}
          >
            Change the password
          </button>{' '}
          <button
            class="button button--small"
            type="button"
            aria-describedby="access-password-state"
            onClick={() => {
              focusAfter('access-password-keep');
              set({ removePassword: true, password: '' });
            }}
          >
            Remove the password
          </button>
        </p>
      </div>
    );
  return (
    <>
      <TextInput
        id="access-password"
        label={access.hasPassword ? 'New password' : 'Password'}
        type="password"
        autocomplete="new-password"
        hint={
          access.hasPassword
            ? 'Replaces the one set when you save. Stored hashed, never shown again.'
            : 'The page asks for it before the form. Stored hashed, never shown again. Blank: none.'
        }
        value={access.password}
        onInput={(password) => set({ password })}
        error={error}
      />
      {access.hasPassword && (
        <p class="actions">
          <button
            class="button button--small"
            type="button"
            onClick={() => {
              focusAfter('access-password-change');
              setChanging(false);
              set({ password: '' });
            }}
          >
            Keep the current password
          </button>
        </p>
      )}
    </>
  );
}
