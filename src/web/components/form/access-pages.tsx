import type { ClosedReason } from '../../../shared/form.js';
import type { MessageId, Words } from '../../../shared/i18n/words.js';

/**
 * The hosted form's pages of its response controls (API.md §15), in the form's card and the
 * page's language: the closed page (not yet open, closed, full, or already answered) and the
 * password page, which posts the password as `_password` and works without JavaScript.
 */

/** Why the closed page is shown: the form's state, or this respondent's answer already received. */
export type ClosedPageReason = ClosedReason | 'answered' | 'address-used';

const HEADINGS: Record<ClosedPageReason, MessageId> = {
  not_yet_open: 'notYetOpenTitle',
  closed: 'closedTitle',
  full: 'closedTitle',
  answered: 'answeredTitle',
  'address-used': 'answeredTitle',
};

const TEXTS: Record<ClosedPageReason, MessageId> = {
  not_yet_open: 'notYetOpenText',
  closed: 'closedText',
  full: 'fullText',
  answered: 'answeredText',
  'address-used': 'addressUsedText',
};

/** The heading of the closed page, which its document's title names too. */
export const closedHeading = (reason: ClosedPageReason, words: Words): string => words.say(HEADINGS[reason]);

export function ClosedCard({
  title,
  reason,
  closedMessage,
  words,
}: {
  title: string;
  reason: ClosedPageReason;
  /**
   * The owner's words (`access.closedMessage`, in the page's language): said instead of Intake's
   * when the form is closed, and after them when this respondent has answered already (API.md
   * §15: "shows the closed page"; Intake's sentence says why this person sees it, which the
   * owner's, written for a closed form, may not).
   */
  closedMessage: string | undefined;
  words: Words;
}) {
  const ownWords = closedMessage?.trim() || undefined;
  const answered = reason === 'answered' || reason === 'address-used';
  return (
    <div class="form-card form-card--done form-card--closed">
      <header class="form-card__header">
        <p class="form-description">{title}</p>
        <h1 class="form-title">{closedHeading(reason, words)}</h1>
      </header>
      <p class="form-description" dir="auto">
        {answered ? words.say(TEXTS[reason]) : (ownWords ?? words.say(TEXTS[reason]))}
      </p>
      {answered && ownWords && (
        <p class="form-description" dir="auto">
          {ownWords}
        </p>
      )}
    </div>
  );
}

export const PASSWORD_CONTROL = '_password';
const PASSWORD_ID = 'intake-password';
const PASSWORD_ERROR_ID = 'intake-password-error';

export function PasswordCard({
  title,
  action,
  error,
  words,
  autofocus,
}: {
  title: string;
  /** Where the password is posted: the form's own address. */
  action: string;
  /** What was wrong with the last one sent, in the page's language. */
  error: string | undefined;
  words: Words;
  /** Focus the field when it comes back with an error (JavaScript off; not in a frame). */
  autofocus: boolean;
}) {
  return (
    <div class="form-card">
      <header class="form-card__header">
        <h1 class="form-title">{title}</h1>
        <p class="form-description">{words.say('passwordText')}</p>
      </header>
      <form class="form" method="post" action={action}>
        <div class={`field field--password${error ? ' field--invalid' : ''}`}>
          <label class="field__label" for={PASSWORD_ID}>
            {words.say('passwordLabel')}
          </label>
          {error && (
            <p class="field__error" id={PASSWORD_ERROR_ID}>
              {error}
            </p>
          )}
          <input
            class="control"
            id={PASSWORD_ID}
            type="password"
            name={PASSWORD_CONTROL}
            required
            maxLength={200}
            autocomplete="current-password"
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? PASSWORD_ERROR_ID : undefined}
            autofocus={autofocus && error !== undefined}
          />
        </div>
        <div class="form__actions">
          <button class="button button--primary" type="submit">
            {words.say('passwordSubmit')}
          </button>
        </div>
      </form>
    </div>
  );
}
