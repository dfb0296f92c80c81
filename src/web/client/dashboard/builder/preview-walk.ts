import type { PageForm } from '../../../../shared/form.js';
import type { Answers } from '../../../../shared/logic.js';
import { firstQuestion, positionOf, stepFrom } from '../../../../shared/walk.js';

/**
 * Where the builder's preview stands in the form: the server's side of the hosted page, played
 * in the dashboard for a form that is not saved yet. It walks with the hosted pages' own walk
 * (shared/walk.ts: the same question after Next and Back, the same "Question n of m" counting
 * only the questions the logic shows), and reads a post as the server reads it
 * (submissions/form-posts.ts `answersOf`). The answers are checked by the page's own script
 * before they get here (client/hosted/checks.ts, the validator's words), and they go no
 * further: nothing is stored, nothing counted.
 */

/** What the preview shows: a question (one-by-one), the whole form (classic), or the end. */
export type PreviewPage =
  | {
      kind: 'question';
      questionId: string;
      position: { n: number; m: number; first: boolean; last: boolean };
    }
  | { kind: 'form' }
  | { kind: 'done' };

export interface PreviewState {
  /** The question shown (one-by-one); undefined: the first. */
  questionId: string | undefined;
  answers: Answers;
  done: boolean;
}

export const startState = (): PreviewState => ({ questionId: undefined, answers: {}, done: false });

const oneByOne = (form: PageForm) => form.ui.layout !== 'classic';

/** The page the state shows, for this form (which may have changed since: a question gone is the first again). */
export function pageOf(form: PageForm, state: PreviewState): PreviewPage {
  if (state.done) return { kind: 'done' };
  if (!oneByOne(form)) return { kind: 'form' };
  const question =
    form.fields.find((field) => field.id === state.questionId && field.type !== 'hidden') ??
    firstQuestion(form, state.answers);
  if (!question) return { kind: 'form' };
  return {
    kind: 'question',
    questionId: question.id,
    position: positionOf(form, question, state.answers),
  };
}

/** A posted page's answers, as the server reads them (form-posts.ts `parseAnswer`): names of no field left out. */
export function answersOfPost(form: PageForm, body: URLSearchParams): Answers {
  const answers: Record<string, unknown> = {};
  for (const field of form.fields) {
    const values = body.getAll(field.id);
    if (values.length === 0) continue;
    const last = values.at(-1) ?? '';
    if (field.type === 'checkbox')
      answers[field.id] = ['on', 'true', '1', 'yes'].includes(last.toLowerCase());
    else if (field.type === 'select' && field.multiple)
      answers[field.id] = values.filter((value) => value !== '');
    else if ((field.type === 'number' || field.type === 'rating') && /^-?\d+(\.\d+)?$/.test(last.trim()))
      answers[field.id] = Number(last.trim());
    else answers[field.id] = values.length > 1 ? values : last;
  }
  return answers;
}

/** The state after a page is posted: Next, Back, or the last page sent (classic: the form sent). */
export function afterPost(form: PageForm, body: URLSearchParams): PreviewState {
  const answers = answersOfPost(form, body);
  if (!oneByOne(form)) return { questionId: undefined, answers, done: true };
  const step = stepFrom(
    form,
    { questionId: body.get('_question') ?? undefined, action: body.get('_action') ?? undefined, answers },
    // the page's script checked this page's answers before posting, in the validator's words
    () => [],
  );
  if (step.to === 'question') return { questionId: step.question.id, answers, done: false };
  return { questionId: undefined, answers, done: step.to === 'submit' };
}
