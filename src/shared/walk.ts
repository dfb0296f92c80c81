import type { FieldError, FormField, Logic } from './form.js';
import { type Answers, isAnswered, visibleAnswers } from './logic.js';

/**
 * The one-by-one layout without JavaScript (API.md §11.1), as a walk through the form's
 * questions: which question a page shows, where it stands ("Question n of m", m counting the
 * questions visible given the answers so far), and where a posted page leads: Back to the
 * previous visible question without validating; Next to the next visible one once this page's
 * question passes; after the last, to the submission of every answer. Pure: the route
 * (routes.tsx) reads the post, calls this, and renders what it says.
 */

/** The form as the walk reads it: its fields in order (hidden ones are no question) and its logic. */
export interface WalkedForm {
  fields: readonly FormField[];
  logic: Logic;
}

/** The questions the logic shows given these answers, in the form's order. */
export function visibleQuestions(form: WalkedForm, answers: Answers): FormField[] {
  const { hidden } = visibleAnswers(form.logic, answers);
  return form.fields.filter((field) => field.type !== 'hidden' && !hidden.has(field.id));
}

/** The first question a respondent sees, given the answers a link carries; none when the logic hides all. */
export const firstQuestion = (form: WalkedForm, answers: Answers): FormField | undefined =>
  visibleQuestions(form, answers)[0];

/**
 * Where saved answers are taken up again (API.md §15 saved progress): the first question the
 * logic shows that is not answered, else the last shown (every one answered: ready to send).
 */
export function resumeAt(form: WalkedForm, answers: Answers): FormField | undefined {
  const visible = visibleQuestions(form, answers);
  return visible.find((field) => !isAnswered(answers[field.id])) ?? visible.at(-1);
}

/** Where a question stands among those visible: n of m, and whether a question comes before it and after it. */
export interface Position {
  n: number;
  m: number;
  first: boolean;
  last: boolean;
}

/**
 * The place of `question` among the questions visible given `answers`. A question the answers
 * hide (a page posted with errors, its answer now dropping it) is still counted where it stands.
 */
export function positionOf(form: WalkedForm, question: FormField, answers: Answers): Position {
  const visible = visibleQuestions(form, answers);
  const order = orderIn(form);
  const before = visible.filter((other) => order(other) < order(question)).length;
  const counted = visible.includes(question) ? 0 : 1;
  return {
    n: before + 1,
    m: visible.length + counted,
    first: before === 0,
    last: !visible.some((other) => order(other) > order(question)),
  };
}

/** A page of the walk posted: the question it showed (`_question`), the button pressed (`_action`), every answer so far. */
export interface PostedPage {
  questionId: string | undefined;
  action: string | undefined;
  answers: Answers;
}

/** Where a posted page leads. */
export type Step =
  /** a question's page: the next, the previous, or this one again with its errors */
  | { to: 'question'; question: FormField; errors?: FieldError[] }
  /** every question passed: submit the answers (a refusal comes back through `refusedAt`) */
  | { to: 'submit'; from: FormField }
  /** no question to show (the logic hides every one): the form as one page */
  | { to: 'form' };

/**
 * The step a posted page takes. `check` gives the validator's errors for the answers (the page's
 * own question's are kept): only Next and the submit button validate, and only this page.
 */
export function stepFrom(
  form: WalkedForm,
  posted: PostedPage,
  check: (answers: Answers) => readonly FieldError[],
): Step {
  const visible = visibleQuestions(form, posted.answers);
  const current = form.fields.find((field) => field.id === posted.questionId && field.type !== 'hidden');
  if (!current) {
    // no question posted (or one this form has not): the walk starts again
    const first = visible[0];
    return first ? { to: 'question', question: first } : { to: 'form' };
  }
  const order = orderIn(form);
  if (posted.action === 'back') {
    const previous = visible.filter((field) => order(field) < order(current)).at(-1) ?? current;
    return { to: 'question', question: previous };
  }
  const errors = check(posted.answers).filter((error) => error.field === current.id);
  if (errors.length > 0) return { to: 'question', question: current, errors };
  const next = visible.find((field) => order(field) > order(current));
  return next ? { to: 'question', question: next } : { to: 'submit', from: current };
}

/**
 * Where a refused submission is shown: errors are shown per page, on the first question (in
 * order) that has one, with its own; errors of no visible question (the CAPTCHA's, a spent
 * key's) all on the page it was sent from.
 */
export function refusedAt(
  form: WalkedForm,
  answers: Answers,
  from: FormField,
  errors: readonly FieldError[],
): { question: FormField; errors: FieldError[] } {
  const failing = visibleQuestions(form, answers).find((field) =>
    errors.some((error) => error.field === field.id),
  );
  if (!failing) return { question: from, errors: [...errors] };
  return { question: failing, errors: errors.filter((error) => error.field === failing.id) };
}

const orderIn = (form: WalkedForm) => (field: FormField) => form.fields.indexOf(field);
