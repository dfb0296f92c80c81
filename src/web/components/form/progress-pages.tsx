import type { Words } from '../../../shared/i18n/words.js';

/**
 * The hosted form's pages of saved progress (API.md §15), in the form's card and the page's
 * language: the page after "Save and continue later" (the link, where it was mailed, and that
 * the link is as good as the answers), and the page of a link that no longer continues anything.
 */

export function SavedCard({
  title,
  link,
  mailedTo,
  notice,
  words,
}: {
  title: string;
  /** `/f/{id}?resume=…`, absolute when the service knows its address. */
  link: string;
  /** The address the link was mailed to, when it was. */
  mailedTo: string | undefined;
  /** Said first: the answers saved were sent already from another device (a new link, a new response). */
  notice?: string;
  words: Words;
}) {
  return (
    <div class="form-card form-card--done form-card--saved">
      <header class="form-card__header">
        <p class="form-description">{title}</p>
        <h1 class="form-title">{words.say('savedHeading')}</h1>
      </header>
      {notice && (
        <p class="form-notice" role="status">
          {notice}
        </p>
      )}
      <p class="form-description">{words.say('savedText')}</p>
      <p class="saved-link">
        <a href={link}>{link}</a>
      </p>
      {mailedTo && <p class="form-description">{words.say('savedMailed', { address: mailedTo })}</p>}
      <p class="form-description">{words.say('savedPrivate')}</p>
      <div class="form__actions">
        <a class="button button--primary" href={link}>
          {words.say('continueNow')}
        </a>
      </div>
    </div>
  );
}

export function ResumeGoneCard({ title, start, words }: { title: string; start: string; words: Words }) {
  return (
    <div class="form-card form-card--done">
      <header class="form-card__header">
        <p class="form-description">{title}</p>
        <h1 class="form-title">{words.say('resumeGoneHeading')}</h1>
      </header>
      <p class="form-description">{words.say('resumeGoneText')}</p>
      <div class="form__actions">
        <a class="button button--primary" href={start}>
          {words.say('startAgain')}
        </a>
      </div>
    </div>
  );
}
