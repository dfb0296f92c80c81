import type { Db } from '../../platform/db/database.js';
import { firstQuestion } from '../../shared/walk.js';
import type { StoredForm } from '../forms/repo.js';
import { reachedPerQuestion, type StepScope, sessionsByFurthest, viewsOf } from './drop-off-repo.js';
import { walksOneByOne } from './steps.js';

/**
 * Drop-off (API.md §15, GET /analytics/drop-off): per question of the form, in page order, the
 * sessions that reached it, answered it and left the form there, counted once per session.
 *
 * One-by-one: from the hosted page's steps (`form_steps`) of the range, and the views of the
 * range whose session sent no page: such a visitor reached the form's first question
 * (`firstQuestion` given no answers) and left there unless a submission of its session exists.
 * `leftHere` is the sessions that did not complete whose furthest question, in page order, is
 * this one; so the `leftHere` of every question and `completed` add up to `sessions`.
 *
 * Classic (one page, nothing recorded per question): every view reached every question; a
 * question counts as answered by the sessions that sent the page (a stored submission of the
 * session), and those that did not all left on the first question. How each question was
 * answered is GET /analytics/questions' (docs/decisions.md).
 */

export interface DropOffQuestion {
  fieldId: string;
  label: string;
  reached: number;
  answered: number;
  leftHere: number;
}

export interface DropOff {
  layout: 'one-by-one' | 'classic';
  /** Sessions counted: those that reached any question within the range. */
  sessions: number;
  /** Of them, those whose session stored a submission. */
  completed: number;
  questions: DropOffQuestion[];
}

export async function dropOff(
  db: Db,
  form: StoredForm,
  range: { from: string; to: string },
): Promise<DropOff> {
  const scope: StepScope = { formId: form.id, ...range };
  const questions = form.definition.fields.filter((field) => field.type !== 'hidden');
  const zero = questions.map((field) => ({
    fieldId: field.id,
    label: field.label,
    reached: 0,
    answered: 0,
    leftHere: 0,
  }));

  if (!walksOneByOne(form.definition)) {
    const { views, completed } = await viewsOf(db, scope, false);
    return {
      layout: 'classic',
      sessions: views,
      completed,
      questions: zero.map((question, i) => ({
        ...question,
        reached: views,
        answered: completed,
        leftHere: i === 0 ? views - completed : 0,
      })),
    };
  }

  const order = questions.map((field) => field.id);
  const [reached, furthest, unsent] = [
    await reachedPerQuestion(db, scope),
    await sessionsByFurthest(db, scope, order),
    await viewsOf(db, scope, true),
  ];
  const byId = new Map(zero.map((question) => [question.fieldId, question]));
  for (const count of reached) {
    const question = byId.get(count.fieldId);
    if (!question) continue; // a question since removed from the form
    question.reached = count.reached;
    question.answered = count.answered;
  }
  let sessions = 0;
  let completed = 0;
  for (const [place, count] of furthest) {
    const question = zero[place];
    if (question) question.leftHere = count.sessions - count.completed;
    sessions += count.sessions;
    completed += count.completed;
  }
  // the views whose session sent no page reached the first question (when the logic shows one)
  const first = firstQuestion(form.definition, {});
  const opening = first ? byId.get(first.id) : undefined;
  if (opening) {
    opening.reached += unsent.views;
    opening.leftHere += unsent.views - unsent.completed;
    sessions += unsent.views;
    completed += unsent.completed;
  }
  return { layout: 'one-by-one', sessions, completed, questions: zero };
}
