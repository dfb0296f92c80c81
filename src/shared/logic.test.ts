import { describe, expect, it } from 'vitest';
import type { ConditionOp, Logic } from './form.js';
import { hiddenFields, matches, visibleAnswers } from './logic.js';

/**
 * The logic evaluator both the server and the hosted page's script run (API.md §5.4). The
 * submit path's tests hold the server to it through the API; these hold the module itself,
 * which the browser bundles.
 */
describe('conditional logic (shared by the server and the page)', () => {
  it('hides a field named in a show rule until the rule matches, and one named in a matching hide rule', () => {
    const logic: Logic = {
      rules: [
        { when: { field: 'topic', op: 'equals', value: 'support' }, show: ['order'] },
        { when: { field: 'country', op: 'in', value: ['FR', 'DE'] }, hide: ['state'] },
      ],
    };
    expect([...hiddenFields(logic, {})]).toEqual(['order']);
    expect([...hiddenFields(logic, { topic: 'support' })]).toEqual([]);
    expect([...hiddenFields(logic, { topic: 'support', country: 'FR' })]).toEqual(['state']);
  });

  it('compares numbers as numbers whatever their form, lists as sets, and dates as text', () => {
    expect(matches({ field: 'n', op: 'gt', value: 9 }, { n: '10' })).toBe(true);
    expect(matches({ field: 'n', op: 'equals', value: '3' }, { n: 3 })).toBe(true);
    expect(matches({ field: 'tags', op: 'equals', value: ['b', 'a'] }, { tags: ['a', 'b', 'a'] })).toBe(true);
    expect(matches({ field: 'tags', op: 'contains', value: 'a' }, { tags: ['a'] })).toBe(true);
    expect(matches({ field: 'day', op: 'lt', value: '2026-12-01' }, { day: '2026-11-24' })).toBe(true);
    expect(matches({ field: 'x', op: 'isEmpty' }, { x: '   ' })).toBe(true);
    expect(matches({ field: 'x', op: 'notEquals', value: 'a' }, {})).toBe(true);
    expect(matches({ any: [{ field: 'x', op: 'isNotEmpty' }, { all: [] }] }, {})).toBe(true);
    // an operator it does not know matches nothing
    expect(matches({ field: 'x', op: 'resembles' as ConditionOp, value: 'a' }, { x: 'a' })).toBe(false);
  });

  it('drops the answers of hidden fields until nothing more is hidden (a chain of rules), and blank answers', () => {
    const logic: Logic = {
      rules: [
        { when: { field: 'a', op: 'equals', value: 'yes' }, show: ['b'] },
        { when: { field: 'b', op: 'equals', value: 'yes' }, show: ['c'] },
      ],
    };
    // a is no longer "yes": b is hidden, so its "yes" no longer shows c
    const { answers, hidden } = visibleAnswers(logic, { a: 'no', b: 'yes', c: 'kept?', d: '' });
    expect(answers).toEqual({ a: 'no' });
    expect([...hidden].sort()).toEqual(['b', 'c']);
    expect(visibleAnswers(logic, { a: 'yes', b: 'yes', c: 'kept' }).answers).toEqual({
      a: 'yes',
      b: 'yes',
      c: 'kept',
    });
  });
});

describe('a checkbox in a condition (API.md §5.4: a ticked box is true)', () => {
  const ticked = { field: 'agree', op: 'equals', value: true } as const;
  const notTicked = { field: 'agree', op: 'notEquals', value: true } as const;
  it('"is ticked" matches true only; "is not ticked" matches false and a box left out (a page’s post sends nothing for it)', () => {
    expect(matches(ticked, { agree: true })).toBe(true);
    expect(matches(ticked, { agree: false })).toBe(false);
    expect(matches(ticked, {})).toBe(false);
    expect(matches(notTicked, { agree: true })).toBe(false);
    expect(matches(notTicked, { agree: false })).toBe(true);
    expect(matches(notTicked, {})).toBe(true);
  });
  it('reads false and absent alike under every test a checkbox takes, so the API and the page agree', () => {
    for (const [op, value] of [
      ['equals', false],
      ['notEquals', false],
      ['isEmpty', undefined],
      ['isNotEmpty', undefined],
    ] as const) {
      const condition = { field: 'agree', op, value };
      expect(matches(condition, { agree: false }), op).toBe(matches(condition, {}));
      expect(matches(condition, { agree: true }), op).not.toBe(matches(condition, {}));
    }
    expect(matches({ field: 'agree', op: 'equals', value: false }, {})).toBe(true);
    expect(matches({ field: 'agree', op: 'isEmpty' }, { agree: false })).toBe(true);
  });
  it('shows a dependent question only while the box is ticked', () => {
    const logic: Logic = { rules: [{ when: ticked, show: ['diet'] }] };
    expect(visibleAnswers(logic, { agree: true, diet: 'vegan' }).hidden.has('diet')).toBe(false);
    expect(visibleAnswers(logic, { agree: false, diet: 'vegan' })).toMatchObject({
      answers: { agree: false },
    });
    expect(visibleAnswers(logic, { agree: false, diet: 'vegan' }).hidden.has('diet')).toBe(true);
  });
});
