import { describe, expect, it } from 'vitest';
import type { FieldError, FormField } from './form.js';
import { firstQuestion, positionOf, refusedAt, stepFrom, visibleQuestions, type WalkedForm } from './walk.js';

/** The one-by-one walk (API.md §11.1) on its own: no server, no page. */

const field = (id: string, extra: Partial<FormField> = {}): FormField => ({
  id,
  type: 'text',
  label: id.toUpperCase(),
  ...extra,
});

/** topic → (details only for "support") → email; `source` a hidden field a link fills. */
const FORM: WalkedForm = {
  fields: [
    field('source', { type: 'hidden' }),
    field('topic'),
    field('details'),
    field('email', { type: 'email', required: true }),
  ],
  logic: { rules: [{ when: { field: 'topic', op: 'equals', value: 'support' }, show: ['details'] }] },
};
const [, topic, details, email] = FORM.fields as [FormField, FormField, FormField, FormField];
const ids = (fields: readonly FormField[]) => fields.map((one) => one.id);
const error = (fieldId: string, code = 'required'): FieldError => ({
  field: fieldId,
  code,
  message: 'is required',
});
const noErrors = () => [];

describe('the questions of a one-by-one form', () => {
  it('are its visible fields, hidden ones never a question, the logic deciding from the answers', () => {
    expect(ids(visibleQuestions(FORM, {}))).toEqual(['topic', 'email']);
    expect(ids(visibleQuestions(FORM, { topic: 'support' }))).toEqual(['topic', 'details', 'email']);
    expect(firstQuestion(FORM, { source: 'newsletter' })).toBe(topic);
  });

  it('has none when the logic hides every one', () => {
    const hiddenAll: WalkedForm = {
      fields: [field('a')],
      logic: { rules: [{ when: { field: 'x', op: 'isNotEmpty' }, show: ['a'] }] },
    };
    expect(firstQuestion(hiddenAll, {})).toBeUndefined();
    expect(stepFrom(hiddenAll, { questionId: undefined, action: undefined, answers: {} }, noErrors)).toEqual({
      to: 'form',
    });
  });
});

describe('a question’s position', () => {
  it('counts the questions visible given the answers so far', () => {
    expect(positionOf(FORM, topic, {})).toEqual({ n: 1, m: 2, first: true, last: false });
    expect(positionOf(FORM, email, {})).toEqual({ n: 2, m: 2, first: false, last: true });
    expect(positionOf(FORM, details, { topic: 'support' })).toEqual({
      n: 2,
      m: 3,
      first: false,
      last: false,
    });
    expect(positionOf(FORM, email, { topic: 'support' })).toEqual({ n: 3, m: 3, first: false, last: true });
  });

  it('counts a question the answers now hide where it stands', () => {
    expect(positionOf(FORM, details, { topic: 'sales' })).toEqual({ n: 2, m: 3, first: false, last: false });
  });
});

describe('a posted page', () => {
  it('goes on to the next visible question once its own question passes', () => {
    const posted = { questionId: 'topic', action: 'next', answers: { topic: 'support' } };
    expect(stepFrom(FORM, posted, noErrors)).toEqual({ to: 'question', question: details });
    const skipping = { questionId: 'topic', action: 'next', answers: { topic: 'sales' } };
    expect(stepFrom(FORM, skipping, noErrors)).toEqual({ to: 'question', question: email });
  });

  it('stays on its question with that question’s errors only', () => {
    const posted = { questionId: 'topic', action: 'next', answers: {} };
    const step = stepFrom(FORM, posted, () => [error('topic', 'pattern'), error('email')]);
    expect(step).toEqual({ to: 'question', question: topic, errors: [error('topic', 'pattern')] });
  });

  it('never validates on Back, and goes to the previous visible question (the first stays)', () => {
    const check = () => [error('details'), error('email')];
    const back = (questionId: string, answers = {}) =>
      stepFrom(FORM, { questionId, action: 'back', answers }, check);
    expect(back('email')).toEqual({ to: 'question', question: topic });
    expect(back('email', { topic: 'support' })).toEqual({ to: 'question', question: details });
    expect(back('topic')).toEqual({ to: 'question', question: topic });
  });

  it('leads to the submission after the last question', () => {
    const posted = { questionId: 'email', action: 'submit', answers: { email: 'a@example.com' } };
    expect(stepFrom(FORM, posted, noErrors)).toEqual({ to: 'submit', from: email });
  });

  it('starts the walk again when it names no question of the form (nor a hidden field)', () => {
    for (const questionId of [undefined, 'nope', 'source']) {
      expect(stepFrom(FORM, { questionId, action: 'next', answers: {} }, noErrors)).toEqual({
        to: 'question',
        question: topic,
      });
    }
  });
});

describe('a refused submission', () => {
  it('is shown on the first visible question with an error, with that question’s errors', () => {
    const errors = [error('email'), error('topic', 'pattern'), error('topic', 'max_length')];
    expect(refusedAt(FORM, {}, email, errors)).toEqual({
      question: topic,
      errors: [error('topic', 'pattern'), error('topic', 'max_length')],
    });
  });

  it('shows errors of no question (the CAPTCHA’s, a spent key’s) on the page it came from', () => {
    const errors = [error('_captcha', 'captcha_undone')];
    expect(refusedAt(FORM, {}, email, errors)).toEqual({ question: email, errors });
  });
});
