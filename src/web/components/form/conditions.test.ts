import { describe, expect, it } from 'vitest';
import type { FormField, Logic } from '../../../shared/form.js';
import { whenApplies } from './conditions.js';

const FIELDS: FormField[] = [
  { id: 'topic', type: 'select', label: 'Topic', options: ['sales', { value: 'support', label: 'Support' }] },
  { id: 'count', type: 'number', label: 'Seats' },
  { id: 'agree', type: 'checkbox', label: 'Consent' },
  { id: 'notes', type: 'textarea', label: 'Notes' },
  { id: 'target', type: 'text', label: 'Target' },
];

const say = (logic: Logic) => whenApplies('target', logic, FIELDS);

/** A classic page without JavaScript says, under a field the logic may hide, when it applies (API.md §11.1). */
describe('whenApplies', () => {
  it('says nothing of a field no rule names', () => {
    expect(say({ rules: [{ when: { field: 'topic', op: 'isEmpty' }, show: ['notes'] }] })).toBeUndefined();
  });

  it('words a shown field’s conditions, option labels and all', () => {
    expect(
      say({ rules: [{ when: { field: 'topic', op: 'equals', value: 'support' }, show: ['target'] }] }),
    ).toBe('Answer this only if the answer to “Topic” is “Support”.');
    expect(
      say({
        rules: [
          { when: { field: 'count', op: 'gt', value: 10 }, show: ['target'] },
          { when: { field: 'topic', op: 'in', value: ['sales', 'support'] }, show: ['target'] },
        ],
      }),
    ).toBe(
      'Answer this only if the answer to “Seats” is more than “10” or the answer to “Topic” is one of “sales”, “Support”.',
    );
  });

  it('words nested all/any, checkboxes, blanks, and a field that is only ever hidden', () => {
    expect(
      say({
        rules: [
          {
            when: {
              all: [
                { field: 'agree', op: 'equals', value: true },
                {
                  any: [
                    { field: 'notes', op: 'isNotEmpty' },
                    { field: 'count', op: 'lte', value: 3 },
                  ],
                },
              ],
            },
            show: ['target'],
          },
        ],
      }),
    ).toBe(
      'Answer this only if “Consent” is ticked and (“Notes” is answered or the answer to “Seats” is at most “3”).',
    );
    expect(say({ rules: [{ when: { field: 'notes', op: 'isEmpty' }, hide: ['target'] }] })).toBe(
      'Skip this if “Notes” is left blank.',
    );
    expect(
      say({
        rules: [
          { when: { field: 'topic', op: 'equals', value: 'sales' }, show: ['target'] },
          { when: { field: 'agree', op: 'equals', value: false }, hide: ['target'] },
        ],
      }),
    ).toBe('Answer this only if the answer to “Topic” is “sales”, and skip it if “Consent” is not ticked.');
  });
});
