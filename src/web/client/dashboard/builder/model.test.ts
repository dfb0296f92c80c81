import { describe, expect, it } from 'vitest';
import {
  type FieldInput,
  fromLogic,
  type LogicInput,
  newFieldId,
  type RuleRow,
  subjectFields,
  toLogic,
} from './model.js';

const fields: FieldInput[] = [
  { id: 'age', type: 'number', label: 'Age' },
  { id: 'agree', type: 'checkbox', label: 'Agree' },
  { id: 'topic', type: 'select', label: 'Topic', options: ['a', 'b'] },
  { id: 'why', type: 'text', label: 'Why' },
];
const rule = (partial: Partial<RuleRow>): RuleRow => ({
  match: 'all',
  conditions: [{ field: 'age', op: 'gte', value: '18' }],
  action: 'show',
  targets: ['why'],
  ...partial,
});

describe('toLogic', () => {
  it('sends one condition bare, numbers of number fields as numbers', () => {
    expect(toLogic([rule({})], fields)).toEqual({
      rules: [{ when: { field: 'age', op: 'gte', value: 18 }, show: ['why'] }],
    });
  });
  it('sends several under all or any; `in` as a list; a checkbox’s true as true; no value where none is taken', () => {
    const logic = toLogic(
      [
        rule({
          match: 'any',
          action: 'hide',
          conditions: [
            { field: 'topic', op: 'in', value: '', list: ['a', 'b'] },
            { field: 'agree', op: 'equals', value: 'true' },
            { field: 'why', op: 'isEmpty', value: 'ignored' },
          ],
        }),
      ],
      fields,
    );
    expect(logic.rules[0]).toEqual({
      when: {
        any: [
          { field: 'topic', op: 'in', value: ['a', 'b'] },
          { field: 'agree', op: 'equals', value: true },
          { field: 'why', op: 'isEmpty' },
        ],
      },
      hide: ['why'],
    });
  });
  it('sends each item of a list as typed, a comma and all, and leaves out blank items', () => {
    const withComma = fields.map((field) =>
      field.id === 'topic' ? { ...field, options: ['a', 'b, c'] } : field,
    );
    const logic = toLogic(
      [
        rule({ conditions: [{ field: 'topic', op: 'in', value: '', list: ['b, c', ' '] }] }),
        rule({ conditions: [{ field: 'why', op: 'in', value: '', list: ['Paris, France', 'Lyon'] }] }),
      ],
      withComma,
    );
    expect(logic.rules.map((r) => r.when)).toEqual([
      { field: 'topic', op: 'in', value: ['b, c'] },
      { field: 'why', op: 'in', value: ['Paris, France', 'Lyon'] },
    ]);
    expect(fromLogic(logic)[1]?.conditions[0]).toEqual({
      field: 'why',
      op: 'in',
      value: '',
      list: ['Paris, France', 'Lyon'],
    });
  });
  it('leaves out a rule not finished (no condition or no field), and sends a kept one as it was', () => {
    const raw: LogicInput['rules'][number] = {
      when: { field: 'age', op: 'gt', value: 1 },
      show: ['why', 'topic'],
    };
    expect(toLogic([rule({ targets: [] }), rule({ conditions: [] }), rule({ raw })], fields)).toEqual({
      rules: [raw],
    });
  });
});

describe('fromLogic', () => {
  it('reads back what toLogic wrote', () => {
    const rows = [
      rule({}),
      rule({
        match: 'any',
        action: 'hide',
        conditions: [
          { field: 'topic', op: 'in', value: '', list: ['a', 'b'] },
          { field: 'why', op: 'isNotEmpty', value: '' },
        ],
      }),
    ];
    expect(fromLogic(toLogic(rows, fields))).toEqual(rows);
  });
  it('keeps whole what it cannot show: nested conditions, several fields, show and hide, a null value', () => {
    const rules: LogicInput['rules'] = [
      { when: { all: [{ any: [{ field: 'age', op: 'gt', value: 1 }] }] }, show: ['why'] },
      { when: { field: 'age', op: 'gt', value: 1 }, show: ['why', 'topic'] },
      { when: { field: 'age', op: 'gt', value: 1 }, show: ['why'], hide: ['topic'] },
      { when: { field: 'why', op: 'equals', value: null }, show: ['topic'] },
    ];
    for (const [index, row] of fromLogic({ rules }).entries()) expect(row.raw).toBe(rules[index]);
  });
  it('is no rule for no logic', () => {
    expect(fromLogic(undefined)).toEqual([]);
  });
});

describe('newFieldId', () => {
  it('makes an id of the label, unaccented and lower-case', () => {
    expect(newFieldId('Your e-mail, please!', [])).toBe('your_e_mail_please');
    expect(newFieldId('Café', [])).toBe('cafe');
  });
  it('numbers an id taken, and names a label without letters "field"', () => {
    expect(newFieldId('Name', ['name', 'name_2'])).toBe('name_3');
    expect(newFieldId('???', [])).toBe('field');
  });
});

describe('subjectFields', () => {
  it('are the answers nobody words: choices, yes or no, numbers, ratings, dates; never typed text or an address', () => {
    const all: FieldInput[] = [
      ...fields,
      { id: 'mail', type: 'email', label: 'E-mail' },
      { id: 'stars', type: 'rating', label: 'Stars' },
      { id: 'day', type: 'date', label: 'Day' },
      { id: 'note', type: 'textarea', label: 'Note' },
    ];
    expect(subjectFields(all).map((field) => field.id)).toEqual(['age', 'agree', 'topic', 'stars', 'day']);
  });
});
