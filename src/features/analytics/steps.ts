import { isAnswered } from '../../shared/logic.js';
import type { PostedPage, Step, WalkedForm } from '../../shared/walk.js';

/**
 * Drop-off (API.md §15): what one post of a one-by-one hosted page says of where its session
 * went, as rows of `form_steps`. The question posted was reached; it was answered when the post
 * carried a non-blank answer to it (a ticked box, as the page's progress bar counts) that the
 * step accepted: Next passed its checks, or it was the last and the answers went to be submitted.
 * Back keeps an answer unjudged, so it answers nothing. The question the post leads to (the next
 * one, the previous one, or the same again with its errors) was reached. Pure: the recorder
 * (commands.ts) writes what this returns, in one statement.
 */

export interface StepRow {
  fieldId: string;
  answered: boolean;
}

export function stepsTaken(form: WalkedForm, posted: PostedPage, step: Step): StepRow[] {
  const rows: StepRow[] = [];
  const current = form.fields.find((field) => field.id === posted.questionId && field.type !== 'hidden');
  if (current) {
    const accepted =
      step.to === 'submit' || (step.to === 'question' && posted.action !== 'back' && !step.errors);
    rows.push({ fieldId: current.id, answered: accepted && isAnswered(posted.answers[current.id]) });
  }
  // one row per question: the same question again (Back on the first page, errors) is one upsert's row
  if (step.to === 'question' && step.question.id !== current?.id)
    rows.push({ fieldId: step.question.id, answered: false });
  return rows;
}

/**
 * "Save and continue later" posted from a question's page: that question was reached, and
 * answered when the post carried a non-blank answer to it, which the partial keeps as it is
 * (saving judges nothing: the answers are checked when the respondent goes on). A file question
 * is not: a partial keeps no files (progress.ts), so it is asked again on resuming.
 */
export function stepsSaved(form: WalkedForm, posted: Pick<PostedPage, 'questionId' | 'answers'>): StepRow[] {
  const current = form.fields.find((field) => field.id === posted.questionId && field.type !== 'hidden');
  if (!current) return [];
  return [
    { fieldId: current.id, answered: current.type !== 'file' && isAnswered(posted.answers[current.id]) },
  ];
}

/** Whether a form walks one question a page (the hosted page's rule: any layout but `classic`). */
export const walksOneByOne = (form: { ui: { layout?: string } }): boolean => form.ui.layout !== 'classic';
