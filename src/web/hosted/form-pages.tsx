import type { FastifyReply } from 'fastify';
import type { ComponentChildren } from 'preact';
import { presentPublicForm } from '../../features/forms/presenter.js';
import type { StoredForm } from '../../features/forms/repo.js';
import { keepsProgress } from '../../features/submissions/progress.js';
import { DEFAULT_MAX_FILE_SIZE, effectiveMaxFileSize } from '../../shared/file-rules.js';
import type { FieldError, FormField, PublicForm } from '../../shared/form.js';
import { catalogueLanguageOf, scriptMessagesFor, wordsFor } from '../../shared/i18n/catalogues.js';
import type { Words } from '../../shared/i18n/words.js';
import { keptPerKey } from '../../shared/memo.js';
import { questionOf } from '../../shared/messages.js';
import { localized } from '../../shared/refusals.js';
import { firstQuestion, positionOf } from '../../shared/walk.js';
import {
  ClosedCard,
  type ClosedPageReason,
  closedHeading,
  PasswordCard,
} from '../components/form/access-pages.js';
import type { PageUploads } from '../components/form/controls.js';
import { FormPage, QuestionPage } from '../components/form/form-page.js';
import { ResumeGoneCard, SavedCard } from '../components/form/progress-pages.js';
import type { PageContext } from '../pages.js';
import { renderDocument, sendPage } from '../render.js';
import { type Alternate, FormDocument, policyFor, ThankYouDocument } from './document.js';
import { HOLES, type KeptPage, KeptPages } from './kept-pages.js';

/**
 * The hosted form's pages as routes.tsx sends them: the whole form (classic), one question
 * (one-by-one, placed by walk.ts), and the thank-you page, each inside document.tsx's document.
 * Every page is sent `no-store`: each carries its own idempotency key, and Back must not post an
 * old one again.
 */

/**
 * A form as its pages need it: the stored one (its policy, its address), its public view in the
 * page's language (what is drawn), and Intake's own words in that language (API.md §13).
 */
export interface ShownForm {
  stored: StoredForm;
  view: PublicForm;
  words: Words;
}

/** The form shown in `language` (one of its languages, chosen by the route; its own when not). */
export function shownForm(stored: StoredForm, language?: string): ShownForm {
  const view = presentPublicForm(stored, language);
  return { stored, view, words: wordsFor(view.language) };
}

/** What a page carries besides the form: the answers so far, the last post's errors, its hidden controls. */
export interface PageState {
  answers: Record<string, unknown>;
  started?: boolean;
  errors?: FieldError[];
  /** The files each file field holds already (API.md §12), by field id: listed under it, posted again. */
  uploads?: PageUploads;
  sessionId: string;
  idempotencyKey: string;
  /** 400 for a page that answers a refused post: nothing was stored, as the status tells anything that is not a person. */
  status?: number;
  /** `?embed=1`: the page in a frame (document.tsx), its form posting there again. */
  embedded: boolean;
  /** The owner's `?preview=1`: the banner, and the form posting there again. */
  preview?: boolean;
  /** The resume token of the answers saved so far (API.md §15), carried to the next post. */
  resume?: string;
  /**
   * Said above the questions: a resumed form's answers left out because the form changed, or the
   * link's answers sent already from another device (going on makes a new response).
   */
  notice?: string;
}

/** A form's errors as its page says them: each refusal in the page's language (shared/messages.ts `localized`). */
const inWords = (errors: readonly FieldError[] | undefined, words: Words): FieldError[] | undefined =>
  errors?.map((error) => ({ ...error, message: localized(error, words) }));

export function formPages(page: PageContext) {
  const kept = new KeptPages();

  /** A page of the form: its document around `body`, and the policy it is sent with. */
  function documentOf(
    { stored, view, words }: ShownForm,
    state: PageState,
    title: string,
    body: ComponentChildren,
  ) {
    const policy = policyFor(stored, state.embedded, state.preview);
    const document = (
      <FormDocument
        form={view}
        page={page}
        embedded={state.embedded}
        preview={state.preview}
        words={words}
        alternates={alternatesOf(stored, view, state)}
        languageLinks={!state.started}
        title={state.errors?.length ? words.say('errorTitle', { title }) : title}
      >
        {body}
      </FormDocument>
    );
    return { document, policy };
  }

  /** A page of the form, sent. */
  function send(
    reply: FastifyReply,
    form: ShownForm,
    state: PageState,
    title: string,
    body: ComponentChildren,
  ) {
    const { document, policy } = documentOf(form, state, title, body);
    return sendPage(reply, document, { status: state.status ?? 200, policy, cache: 'no-store' });
  }

  /** A page of the form that is not the form (closed, password): no CAPTCHA, the language links kept. */
  function sendDone(
    reply: FastifyReply,
    { stored, view, words }: ShownForm,
    options: { embedded: boolean; status?: number },
    title: string,
    body: ComponentChildren,
  ) {
    const policy = policyFor(stored, options.embedded);
    const state: PageState = { answers: {}, sessionId: '', idempotencyKey: '', embedded: options.embedded };
    return sendPage(
      reply,
      <FormDocument
        form={view}
        page={page}
        embedded={options.embedded}
        words={words}
        alternates={alternatesOf(stored, view, state)}
        languageLinks
        done
        title={title}
      >
        {body}
      </FormDocument>,
      { status: options.status ?? 200, policy, cache: 'no-store' },
    );
  }

  return {
    /** Every field on one page: the classic layout, and a one-by-one form whose questions the logic hides all. */
    form(reply: FastifyReply, form: ShownForm, state: PageState) {
      return send(reply, form, state, ...wholeForm(withFileCap(form, page.fileMaxBytes), state));
    },

    /** One question of a one-by-one form (a field of the public view), "Question n of m" in its title. */
    question(reply: FastifyReply, form: ShownForm, question: FormField, state: PageState) {
      return send(reply, form, state, ...oneQuestion(withFileCap(form, page.fileMaxBytes), question, state));
    },

    /**
     * The first page as anyone gets it (no answers, no errors, not the preview): the form, or the
     * first question of a one-by-one form, in `language`; rendered once per form version, language
     * and frame and sent from memory with this response's session id and idempotency key
     * (kept-pages.ts). Nothing of it is made per request, not even the form's public view.
     */
    firstPage(
      reply: FastifyReply,
      stored: StoredForm,
      language: string,
      oneByOne: boolean,
      state: PageState,
      sending?: (page: KeptPage, gzip: boolean) => void,
    ) {
      const key = [stored.id, stored.version, stored.updatedAt, language, state.embedded].join('\u0000');
      return kept.send(
        reply,
        key,
        () => {
          const form = withFileCap(shownForm(stored, language), page.fileMaxBytes);
          const holed: PageState = { answers: {}, embedded: state.embedded, ...HOLES };
          const first = oneByOne ? firstQuestion(form.view, {}) : undefined;
          const [title, body] = first ? oneQuestion(form, first, holed) : wholeForm(form, holed);
          const { document, policy } = documentOf(form, holed, title, body);
          return { html: renderDocument(document), policy };
        },
        state,
        sending,
      );
    },

    /**
     * The closed page (API.md §15) instead of the form: not yet open, closed, full (the owner's
     * `closedMessage` when set), or this respondent's answer received already.
     */
    closed(
      reply: FastifyReply,
      form: ShownForm,
      reason: ClosedPageReason,
      options: { embedded: boolean; status?: number },
    ) {
      const heading = closedHeading(reason, form.words);
      return sendDone(reply, form, options, `${heading} – ${form.view.title}`, [
        <ClosedCard
          key="closed"
          title={form.view.title}
          reason={reason}
          closedMessage={form.view.access.closedMessage}
          words={form.words}
        />,
      ]);
    },

    /** The password page (API.md §15): asked before the form; `error` the last try's refusal. */
    password(
      reply: FastifyReply,
      form: ShownForm,
      options: { embedded: boolean; status?: number; error?: string },
    ) {
      const title = form.words.say('passwordTitle', { title: form.view.title });
      return sendDone(reply, form, options, options.error ? form.words.say('errorTitle', { title }) : title, [
        <PasswordCard
          key="password"
          title={form.view.title}
          action={actionOf(form.stored, { embedded: options.embedded }, form.view)}
          error={options.error}
          words={form.words}
          autofocus={!options.embedded}
        />,
      ]);
    },

    /** "Save and continue later" done (API.md §15): the link, and the address it was mailed to. */
    saved(
      reply: FastifyReply,
      form: ShownForm,
      options: { embedded: boolean; link: string; mailedTo: string | undefined; notice?: string },
    ) {
      const heading = form.words.say('savedHeading');
      return sendDone(reply, form, options, `${heading} – ${form.view.title}`, [
        <SavedCard
          key="saved"
          title={form.view.title}
          link={options.link}
          mailedTo={options.mailedTo}
          notice={options.notice}
          words={form.words}
        />,
      ]);
    },

    /** A resume link whose answers were sent or have expired: said so, with the way to start again. */
    resumeGone(reply: FastifyReply, form: ShownForm, options: { embedded: boolean }) {
      const heading = form.words.say('resumeGoneHeading');
      return sendDone(reply, form, { ...options, status: 404 }, `${heading} – ${form.view.title}`, [
        <ResumeGoneCard
          key="gone"
          title={form.view.title}
          start={actionOf(form.stored, options, form.view)}
          words={form.words}
        />,
      ]);
    },

    /** The end: `ui.successMessage`; embedded, the submission's id for the parent page's event. */
    thankYou(
      reply: FastifyReply,
      form: ShownForm,
      options: { embedded: boolean; preview?: boolean; submissionId?: string },
    ) {
      const policy = policyFor(form.stored, options.embedded, options.preview);
      return sendPage(
        reply,
        <ThankYouDocument form={form.view} page={page} words={form.words} {...options} />,
        { policy, cache: 'no-store' },
      );
    },
  };
}

/**
 * The form as this instance takes files: no file field's size over `FILE_MAX_BYTES`, its default
 * of 10 MiB included (API.md §12), so that the page says, and its script checks, what the server
 * will take. The same form when nothing is over.
 */
function withFileCap(form: ShownForm, cap: number | undefined): ShownForm {
  const over = (field: FormField) =>
    field.type === 'file' &&
    cap !== undefined &&
    effectiveMaxFileSize(field, cap) < (field.maxFileSize ?? DEFAULT_MAX_FILE_SIZE);
  if (!form.view.fields.some(over)) return form;
  const fields = form.view.fields.map((field) => (over(field) ? { ...field, maxFileSize: cap } : field));
  return { ...form, view: { ...form.view, fields } };
}

/** What the classic page and a one-by-one page are both given: the form, its words and this load's state. */
function pageProps(form: ShownForm, state: PageState) {
  return {
    form: form.view,
    words: form.words,
    scriptWords: scriptWordsOf(form.view.language),
    action: actionOf(form.stored, state, form.view),
    answers: state.answers,
    errors: inWords(state.errors, form.words),
    uploads: state.uploads,
    sessionId: state.sessionId,
    idempotencyKey: state.idempotencyKey,
    started: state.started,
    resumeToken: state.resume,
    notice: state.notice,
    embedded: state.embedded,
    preview: state.preview,
    offersSaving: keepsProgress(form.stored),
  };
}

/** The classic page's title and body. */
function wholeForm(form: ShownForm, state: PageState): [string, ComponentChildren] {
  return [form.view.title, <FormPage {...pageProps(form, state)} />];
}

/** A one-by-one page's title ("Question n of m – title") and body. */
function oneQuestion(form: ShownForm, question: FormField, state: PageState): [string, ComponentChildren] {
  const position = positionOf(form.view, question, state.answers);
  return [
    `${questionOf(position.n, position.m, form.words)} – ${form.view.title}`,
    <QuestionPage
      {...pageProps(form, state)}
      field={question}
      position={position}
      first={position.first}
      last={position.last}
    />,
  ];
}

/**
 * A page's address: keeping `?embed=1` and the owner's `?preview=1`, and `?lang=` when the form
 * has more than one language (so the language stays through every page that follows a post:
 * its steps, its errors, its thank-you page).
 */
function addressOf(
  form: StoredForm,
  { embedded, preview }: Pick<PageState, 'embedded' | 'preview'>,
  lang: string | undefined,
): string {
  const flags = [
    embedded && 'embed=1',
    preview && 'preview=1',
    lang && `lang=${encodeURIComponent(lang)}`,
  ].filter(Boolean);
  return `/f/${encodeURIComponent(form.id)}${flags.length > 0 ? `?${flags.join('&')}` : ''}`;
}

/** Where a page posts: its own address, in its language. */
const actionOf = (
  form: StoredForm,
  state: Pick<PageState, 'embedded' | 'preview'>,
  view: PublicForm,
): string => addressOf(form, state, view.languages.length > 1 ? view.language : undefined);

/** The page in the form's other languages. */
const alternatesOf = (form: StoredForm, view: PublicForm, state: PageState): Alternate[] =>
  view.languages
    .filter((lang) => lang !== view.language)
    .map((lang) => ({ lang, href: addressOf(form, state, lang) }));

/** The page script's messages in the page's language, as the form's `data-words` carries them (made once a language). */
const scriptWordsOf = keptPerKey((language) =>
  JSON.stringify({ lang: catalogueLanguageOf(language) ?? 'en', messages: scriptMessagesFor(language) }),
);
