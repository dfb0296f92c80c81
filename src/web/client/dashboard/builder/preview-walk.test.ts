import { describe, expect, it } from 'vitest';
import type { PageForm } from '../../../../shared/form.js';
import { afterPost, answersOfPost, pageOf, startState } from './preview-walk.js';

/** The preview's side of the server (issue 25, item 2): the hosted pages' walk, on a form not saved yet. */

const form: PageForm = {
  id: 'frm_x',
  title: 'Meetup',
  fields: [
    { id: 'name', type: 'text', label: 'Name', required: true },
    { id: 'ticket', type: 'select', label: 'Ticket', options: ['standard', 'student'] },
    { id: 'card', type: 'text', label: 'Card number' },
    { id: 'days', type: 'select', label: 'Days', multiple: true, options: ['mon', 'tue'] },
    { id: 'guests', type: 'number', label: 'Guests' },
    { id: 'agree', type: 'checkbox', label: 'I agree' },
    { id: 'source', type: 'hidden', label: 'Source' },
  ],
  ui: { layout: 'one-by-one' },
  logic: { rules: [{ when: { field: 'ticket', op: 'equals', value: 'student' }, show: ['card'] }] },
  spamProtection: { honeypot: null, captcha: null },
};

const post = (entries: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(entries))
    for (const item of [value].flat()) body.append(name, item);
  return body;
};

describe('the preview walk', () => {
  it('reads a post as the server does: a ticked box true, a number a number, several a list; other names left out', () => {
    expect(
      answersOfPost(
        form,
        post({ name: 'Ada', days: ['mon', 'tue'], guests: '2', agree: 'on', _question: 'name', other: 'x' }),
      ),
    ).toEqual({ name: 'Ada', days: ['mon', 'tue'], guests: 2, agree: true });
  });

  it('counts only the questions the logic shows, as the live page does ("Question 1 of 5", then "of 6")', () => {
    expect(pageOf(form, startState())).toMatchObject({
      kind: 'question',
      questionId: 'name',
      position: { n: 1, m: 5 },
    });
    const second = afterPost(form, post({ _question: 'name', _action: 'next', name: 'Ada' }));
    expect(pageOf(form, second)).toMatchObject({
      questionId: 'ticket',
      position: { n: 2, m: 5, first: false },
    });
    const student = afterPost(
      form,
      post({ _question: 'ticket', _action: 'next', name: 'Ada', ticket: 'student' }),
    );
    expect(pageOf(form, student)).toMatchObject({ questionId: 'card', position: { n: 3, m: 6 } });
    const back = afterPost(
      form,
      post({ _question: 'card', _action: 'back', name: 'Ada', ticket: 'student' }),
    );
    expect(back.questionId).toBe('ticket');
    expect(back.answers).toEqual({ name: 'Ada', ticket: 'student' });
  });

  it('ends after the last question, and shows a classic form whole', () => {
    const done = afterPost(form, post({ _question: 'agree', _action: 'submit', name: 'Ada', agree: 'on' }));
    expect(pageOf(form, done)).toEqual({ kind: 'done' });
    const classic = { ...form, ui: { layout: 'classic' as const } };
    expect(pageOf(classic, startState())).toEqual({ kind: 'form' });
    expect(pageOf(classic, afterPost(classic, post({ name: 'Ada' })))).toEqual({ kind: 'done' });
  });

  it('takes a question gone from the form (deleted while the preview stood on it) as the first again', () => {
    expect(pageOf(form, { questionId: 'gone', answers: {}, done: false })).toMatchObject({
      questionId: 'name',
    });
  });
});
