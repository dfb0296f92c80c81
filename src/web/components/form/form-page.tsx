import type { FieldError, FormField, PageForm } from '../../../shared/form.js';
import { ENGLISH_SCRIPT_WORDS, ENGLISH_WORDS } from '../../../shared/i18n/english.js';
import type { Words } from '../../../shared/i18n/words.js';
import { isAnswered, visibleAnswers } from '../../../shared/logic.js';
import { answeredOf, errorSentence, questionOf } from '../../../shared/messages.js';
import { CaptchaWidget } from './captcha.js';
import { whenApplies } from './conditions.js';
import { controlId, type PageAnswers, type PageUploads } from './controls.js';
import { Field } from './fields.js';

/**
 * The hosted form (API.md §11.1) as pure components: the server renders them into its pages,
 * and the dashboard's builder may render the very same ones as a preview.
 */

/** The submit button's label and the thank-you heading when the form sets none: Intake's words, in the page's language. */
export const defaultSubmitLabel = (words: Words = ENGLISH_WORDS) => words.say('submit');
export const defaultSuccessMessage = (words: Words = ENGLISH_WORDS) => words.say('thankYou');

export interface FormPageProps {
  form: PageForm;
  /** Where the form posts (the page's own URL). */
  action: string;
  /** The answers so far: kept when a post comes back with errors. */
  answers?: PageAnswers;
  /** The problems of the last post, one per failing answer. */
  errors?: readonly FieldError[];
  /** The files each file field holds already (uploaded, or kept from an earlier post), by field id. */
  uploads?: PageUploads;
  /** Carried in hidden inputs: the page's analytics session and the key that makes a double post store once. */
  sessionId?: string;
  idempotencyKey?: string;
  /** Set on the pages that answer a post: the start (analytics) is counted already. */
  started?: boolean;
  /** The resume token of the answers saved so far (API.md §15 saved progress), carried in `_resume`. */
  resumeToken?: string;
  /** A word for the respondent above the questions (answers left out of a resumed form, API.md §15). */
  notice?: string;
  /**
   * In a frame of another origin (`?embed=1`), where browsers refuse `autofocus`: the error
   * summary goes without it, and the frame's script (client/hosted/frame.ts) focuses it.
   */
  embedded?: boolean;
  /** The owner's preview (the hosted `?preview=1`, the builder's): a file field uploads nothing there. */
  preview?: boolean;
  /** Whether a one-by-one page offers "Save and continue later" (not for a form that stores nothing); default true. */
  offersSaving?: boolean;
  /** Intake's own words in the page's language (API.md §13); English when not given. */
  words?: Words;
  /**
   * The page script's messages in the page's language (shared/i18n `scriptMessagesFor`), carried
   * in the form's `data-words`: only that language is sent.
   */
  scriptWords?: string;
}

/** Every field on one page (the classic layout), with the title, the description, and the submit button. */
export function FormPage({
  form,
  action,
  answers = {},
  errors = [],
  uploads = {},
  sessionId,
  idempotencyKey,
  started,
  resumeToken,
  notice,
  embedded,
  preview,
  words = ENGLISH_WORDS,
  scriptWords = ENGLISH_SCRIPT_WORDS,
}: FormPageProps) {
  const byField = new Map<string, string>();
  for (const error of errors) if (!byField.has(error.field)) byField.set(error.field, error.message);
  const visible = form.fields.filter((field) => field.type !== 'hidden');
  const honeypot = form.spamProtection.honeypot?.field;
  return (
    <div class="form-card">
      <header class="form-card__header">
        {form.ui.progress === 'bar' && <AnsweredBar form={form} answers={answers} words={words} />}
        <h1 class="form-title">{form.title}</h1>
        {form.ui.description && <p class="form-description">{form.ui.description}</p>}
        {notice && (
          <p class="form-notice" role="status">
            {notice}
          </p>
        )}
      </header>
      {errors.length > 0 && (
        <ErrorSummary errors={errors} fields={form.fields} autofocus={!embedded} words={words} />
      )}
      <form
        class="form"
        method="post"
        action={action}
        enctype={sendsFiles(form.fields) ? MULTIPART : undefined}
        data-form={form.id}
        data-words={scriptWords}
        // the page's script shows and hides fields as they are answered (shared/logic.ts)
        data-logic={form.logic.rules.length > 0 ? JSON.stringify(form.logic) : undefined}
      >
        {visible.some((field) => field.required) && (
          <p class="form__legend" aria-hidden="true">
            <span class="field__required">*</span> {words.say('requiredLegend')}
          </p>
        )}
        {form.fields.map((field) => (
          <Field
            key={field.id}
            field={field}
            value={answers[field.id]}
            error={byField.has(field.id) ? alone(byField.get(field.id) ?? '', words) : undefined}
            note={field.type === 'hidden' ? undefined : whenApplies(field.id, form.logic, form.fields)}
            uploads={uploads[field.id]}
            preview={preview}
            words={words}
          />
        ))}
        {honeypot && <Honeypot name={honeypot} words={words} />}
        {form.spamProtection.captcha && <CaptchaWidget {...form.spamProtection.captcha} />}
        {sessionId && <input type="hidden" name="_session" value={sessionId} />}
        {idempotencyKey && <input type="hidden" name="_idempotency" value={idempotencyKey} />}
        {started && <input type="hidden" name="_started" value="1" />}
        {resumeToken && <input type="hidden" name="_resume" value={resumeToken} />}
        <div class="form__actions">
          <button class="button button--primary" type="submit">
            {form.ui.submitLabel?.trim() || defaultSubmitLabel(words)}
          </button>
        </div>
      </form>
    </div>
  );
}

export interface QuestionPageProps extends FormPageProps {
  /** The question of this page. */
  field: FormField;
  /** Its place among the questions visible given the answers so far: "Question n of m". */
  position: { n: number; m: number };
  /** Whether a question comes before this one (then a Back button), and whether this is the last (then the submit button). */
  first: boolean;
  last: boolean;
}

/**
 * One question a page (`ui.layout: "one-by-one"` without JavaScript): the answers to the other
 * questions ride along in hidden inputs, Next and Back post the page (Back with
 * `formnovalidate`: it never validates), the last page's button is the submit label, and "Save
 * and continue later" (not in a preview) keeps the answers so far for a link. The
 * first submit button in the document is the one Enter presses: Next (or the submit label), so
 * it comes before Back.
 */
export function QuestionPage(props: QuestionPageProps) {
  const {
    form,
    action,
    answers = {},
    errors = [],
    uploads = {},
    sessionId,
    idempotencyKey,
    started,
    resumeToken,
    notice,
    embedded,
    preview,
    offersSaving = true,
    field,
    position,
    first,
    last,
    words = ENGLISH_WORDS,
    scriptWords = ENGLISH_SCRIPT_WORDS,
  } = props;
  const message = errors.find((error) => error.field === field.id)?.message;
  const honeypot = form.spamProtection.honeypot?.field;
  const progress = form.ui.progress ?? 'steps';
  const label = questionOf(position.n, position.m, words);
  return (
    <div class="form-card">
      <header class="form-card__header">
        {progress === 'steps' && (
          <p class="progress" id="progress">
            {label}
          </p>
        )}
        {progress === 'bar' && (
          <progress class="progress-bar" id="progress" value={position.n} max={position.m} aria-label={label}>
            {label}
          </progress>
        )}
        <h1 class="form-title">{form.title}</h1>
        {first && form.ui.description && <p class="form-description">{form.ui.description}</p>}
        {notice && (
          <p class="form-notice" role="status">
            {notice}
          </p>
        )}
      </header>
      {errors.length > 0 && (
        <ErrorSummary errors={errors} fields={form.fields} autofocus={!embedded} words={words} />
      )}
      <form
        class="form form--question"
        method="post"
        action={action}
        enctype={sendsFiles([field]) ? MULTIPART : undefined}
        data-form={form.id}
        data-words={scriptWords}
      >
        <input type="hidden" name="_question" value={field.id} />
        {form.fields
          .filter((other) => other.id !== field.id)
          .flatMap((other) =>
            // a file field's answer is the files it holds: their upload ids, posted again
            other.type === 'file'
              ? carried(
                  other.id,
                  (uploads[other.id] ?? []).map((upload) => upload.uploadId),
                )
              : carried(other.id, answers[other.id]),
          )}
        <Field
          field={field}
          value={answers[field.id]}
          error={message ? alone(message, words) : undefined}
          uploads={uploads[field.id]}
          preview={preview}
          words={words}
          heading
          position={progress === 'none' ? undefined : 'progress'}
        />
        {honeypot && <Honeypot name={honeypot} words={words} />}
        {last && form.spamProtection.captcha && <CaptchaWidget {...form.spamProtection.captcha} />}
        {sessionId && <input type="hidden" name="_session" value={sessionId} />}
        {idempotencyKey && <input type="hidden" name="_idempotency" value={idempotencyKey} />}
        {started && <input type="hidden" name="_started" value="1" />}
        {resumeToken && <input type="hidden" name="_resume" value={resumeToken} />}
        <div class="form__actions">
          <button
            class="button button--primary"
            type="submit"
            name="_action"
            value={last ? 'submit' : 'next'}
          >
            {last ? form.ui.submitLabel?.trim() || defaultSubmitLabel(words) : words.say('next')}
          </button>
          {!first && (
            <button class="button button--secondary" type="submit" name="_action" value="back" formNoValidate>
              {words.say('back')}
            </button>
          )}
          {/* saved progress (API.md §15): the answers so far kept, the page then gives the link to come back */}
          {!preview && offersSaving && (
            <button
              class="button button--quiet form__save"
              type="submit"
              name="_action"
              value="save"
              formNoValidate
            >
              {words.say('saveLater')}
            </button>
          )}
        </div>
      </form>
    </div>
  );
}

/**
 * A classic page's progress bar (`ui.progress: "bar"`, API.md §11.1): the questions answered of
 * those the logic shows given the answers (none at first; the count after a refused post). The
 * page's script (client/hosted/answers.ts `showProgress`) keeps it up to date as they are answered.
 */
function AnsweredBar({ form, answers, words }: { form: PageForm; answers: PageAnswers; words: Words }) {
  const { answers: kept, hidden } = visibleAnswers(form.logic, answers);
  const shown = form.fields.filter((field) => field.type !== 'hidden' && !hidden.has(field.id));
  const answered = shown.filter((field) => isAnswered(kept[field.id])).length;
  const label = answeredOf(answered, shown.length, words);
  return (
    <progress
      class="progress-bar progress-bar--answered"
      id="progress"
      value={answered}
      max={Math.max(shown.length, 1)}
      aria-label={label}
    >
      {label}
    </progress>
  );
}

/** A page that shows a file field posts as multipart/form-data (its files in the post); any other stays urlencoded. */
const MULTIPART = 'multipart/form-data';
const sendsFiles = (fields: readonly FormField[]): boolean => fields.some((field) => field.type === 'file');

/** An answer given on another page, as the hidden inputs that post it again (a list as one input per item, an unticked box as none). */
function carried(id: string, value: unknown) {
  if (value === undefined || value === null || value === false || value === '') return [];
  const items = Array.isArray(value) ? value : [value === true ? 'on' : value];
  return items.map((item, i) => <input key={`${id}-${i}`} type="hidden" name={id} value={String(item)} />);
}

/** A field's error where the question is not in sight (the error summary): its label, then the message. */
const sentence = (field: FormField | undefined, message: string, words: Words): string =>
  errorSentence(field?.label, message, words);

/** A field's error under its own label: the message alone ("Enter at least 2 characters."). */
const alone = (message: string, words: Words): string => errorSentence(undefined, message, words);

/**
 * What went wrong, at the top of the page: a heading and a link to each failing field. It
 * takes focus as the page loads (autofocus on the container, which tabindex=-1 makes
 * focusable; no script needed), so a screen reader reads it first.
 */
export function ErrorSummary({
  errors,
  fields,
  autofocus = true,
  words = ENGLISH_WORDS,
}: {
  errors: readonly FieldError[];
  fields: readonly FormField[];
  autofocus?: boolean;
  words?: Words;
}) {
  const byId = new Map(fields.map((field) => [field.id, field]));
  return (
    <section class="error-summary" tabIndex={-1} autofocus={autofocus} aria-labelledby="summary-title">
      <h2 class="error-summary__title" id="summary-title">
        {words.say('errorSummaryTitle')}
      </h2>
      <ul class="error-summary__list">
        {errors.map((error, i) => {
          const field = byId.get(error.field);
          const message = sentence(field, error.message, words);
          return (
            <li key={i}>
              {field && field.type !== 'hidden' ? <a href={`#${controlId(field.id)}`}>{message}</a> : message}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * The honeypot (spamProtection.honeypot): a field a person never sees, hears or reaches with
 * the keyboard, which a bot filling in every input fills. Moved off-screen by CSS (not
 * display:none, which some bots skip), hidden from assistive technology, out of the tab order.
 */
export function Honeypot({ name, words = ENGLISH_WORDS }: { name: string; words?: Words }) {
  return (
    // inert: not focusable by any means (click, script, find in page), as well as out of sight
    <div class="hp" aria-hidden="true" inert>
      <label for="hp-field">{words.say('honeypot')}</label>
      <input
        id="hp-field"
        type="text"
        name={name}
        value=""
        tabIndex={-1}
        autocomplete="off"
        aria-hidden="true"
      />
    </div>
  );
}

/**
 * The end of a form: `ui.successMessage`, else "Thank you". In the owner's preview it says that
 * nothing was stored, and where `ui.redirectUrl` would have led instead.
 */
export function ThankYou({
  form,
  preview,
  words = ENGLISH_WORDS,
}: {
  form: Pick<PageForm, 'title' | 'ui'>;
  preview?: boolean;
  words?: Words;
}) {
  const redirect = form.ui.redirectUrl;
  return (
    <div class="form-card form-card--done">
      <p class="thanks__mark" aria-hidden="true">
        ✓
      </p>
      <h1 class="form-title">{form.ui.successMessage?.trim() || defaultSuccessMessage(words)}</h1>
      {preview ? (
        <p class="form-description">
          {words.say('previewSent', { title: form.title })}
          {redirect && ` ${words.say('previewRedirect', { url: redirect })}`}
        </p>
      ) : (
        <p class="form-description">{words.say('sent', { title: form.title })}</p>
      )}
    </div>
  );
}
