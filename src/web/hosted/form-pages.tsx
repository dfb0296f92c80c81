import type { FastifyReply } from 'fastify';
import type { ComponentChildren } from 'preact';
import { presentPublicForm } from '../../features/forms/presenter.js';
import type { StoredForm } from '../../features/forms/repo.js';
import type { FieldError, FormField, PublicForm } from '../../shared/form.js';
import { questionOf } from '../../shared/messages.js';
import { positionOf } from '../../shared/walk.js';
import type { PageUploads } from '../components/form/controls.js';
import { FormPage, QuestionPage } from '../components/form/form-page.js';
import type { PageContext } from '../pages.js';
import { sendPage } from '../render.js';
import { FormDocument, policyFor, ThankYouDocument } from './document.js';

/**
 * The hosted form's pages as routes.tsx sends them: the whole form (classic), one question
 * (one-by-one, placed by walk.ts), and the thank-you page, each inside document.tsx's document.
 * Every page is sent `no-store`: each carries its own idempotency key, and Back must not post an
 * old one again.
 */

/** A form as its pages need it: the stored one (its policy, its address) and its public view (what is drawn). */
export interface ShownForm {
  stored: StoredForm;
  view: PublicForm;
}

export const shownForm = (stored: StoredForm): ShownForm => ({ stored, view: presentPublicForm(stored) });

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
}

export function formPages(page: PageContext) {
  /** A page of the form: its document around `body`. */
  function send(
    reply: FastifyReply,
    { stored, view }: ShownForm,
    state: PageState,
    title: string,
    body: ComponentChildren,
  ) {
    const policy = policyFor(stored, state.embedded, state.preview);
    return sendPage(
      reply,
      <FormDocument
        form={view}
        page={page}
        nonce={policy.nonce}
        embedded={state.embedded}
        preview={state.preview}
        title={state.errors?.length ? `Error: ${title}` : title}
      >
        {body}
      </FormDocument>,
      { status: state.status ?? 200, policy, cache: 'no-store' },
    );
  }

  return {
    /** Every field on one page: the classic layout, and a one-by-one form whose questions the logic hides all. */
    form(reply: FastifyReply, form: ShownForm, state: PageState) {
      return send(
        reply,
        form,
        state,
        form.view.title,
        <FormPage
          form={form.view}
          action={actionOf(form.stored, state)}
          answers={state.answers}
          errors={state.errors}
          uploads={state.uploads}
          sessionId={state.sessionId}
          idempotencyKey={state.idempotencyKey}
          started={state.started}
          embedded={state.embedded}
          preview={state.preview}
        />,
      );
    },

    /** One question of a one-by-one form (a field of the public view), "Question n of m" in its title. */
    question(reply: FastifyReply, form: ShownForm, question: FormField, state: PageState) {
      const position = positionOf(form.view, question, state.answers);
      return send(
        reply,
        form,
        state,
        `${questionOf(position.n, position.m)} – ${form.view.title}`,
        <QuestionPage
          form={form.view}
          action={actionOf(form.stored, state)}
          field={question}
          position={position}
          first={position.first}
          last={position.last}
          answers={state.answers}
          errors={state.errors}
          uploads={state.uploads}
          sessionId={state.sessionId}
          idempotencyKey={state.idempotencyKey}
          started={state.started}
          embedded={state.embedded}
          preview={state.preview}
        />,
      );
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
        <ThankYouDocument form={form.view} page={page} nonce={policy.nonce} {...options} />,
        { policy, cache: 'no-store' },
      );
    },
  };
}

/** Where a page posts: its own address, keeping `?embed=1` and the owner's `?preview=1`. */
function actionOf(form: StoredForm, { embedded, preview }: Pick<PageState, 'embedded' | 'preview'>): string {
  const flags = [embedded && 'embed=1', preview && 'preview=1'].filter(Boolean);
  return `/f/${encodeURIComponent(form.id)}${flags.length > 0 ? `?${flags.join('&')}` : ''}`;
}
