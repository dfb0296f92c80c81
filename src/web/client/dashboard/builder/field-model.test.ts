import { describe, expect, it } from 'vitest';
import {
  FIELD_KINDS,
  idCameFrom,
  moved,
  newField,
  nextOptionLabel,
  relabelled,
  withOptionLabel,
  withOptionValue,
  withType,
} from './field-model.js';
import type { FieldInput } from './model.js';
import { tabOfMember } from './tabs.js';

describe('the type palette', () => {
  it('names every type once, each with a line on what it is for', () => {
    const types = FIELD_KINDS.map((kind) => kind.type);
    expect(new Set(types).size).toBe(11);
    for (const kind of FIELD_KINDS) expect(kind.description).toMatch(/^[A-Z].+\.$/);
  });
});

describe('newField', () => {
  it('makes an e-mail or phone field personal data, and nothing else', () => {
    expect(newField('email', [])).toEqual({
      id: 'e_mail_address',
      type: 'email',
      label: 'E-mail address',
      pii: true,
    });
    expect(newField('phone', [])).toMatchObject({ id: 'phone_number', pii: true });
    expect(newField('text', [])).not.toHaveProperty('pii');
    expect(newField('textarea', [])).not.toHaveProperty('pii');
  });
  it('numbers its label after the fields before it, and takes an id nobody has', () => {
    const before: FieldInput[] = [{ id: 'question_2', type: 'text', label: 'Other' }];
    expect(newField('text', before)).toMatchObject({ label: 'Question 2', id: 'question_2_2' });
  });
  it('starts a choice with two options and a rating at 1 to 5', () => {
    expect(newField('select', [])).toMatchObject({ options: ['Option 1', 'Option 2'] });
    expect(newField('rating', [])).toMatchObject({ min: 1, max: 5 });
  });
});

describe('withType', () => {
  it('makes a field turned e-mail personal, unless its owner said it is not', () => {
    expect(withType({ id: 'a', type: 'text', label: 'A' }, 'email').pii).toBe(true);
    expect(withType({ id: 'a', type: 'text', label: 'A', pii: false }, 'email').pii).toBe(false);
  });
  it('gives a field turned choice options, keeping any it had', () => {
    expect(withType({ id: 'a', type: 'text', label: 'A' }, 'select').options).toEqual([
      'Option 1',
      'Option 2',
    ]);
    expect(withType({ id: 'a', type: 'text', label: 'A', options: ['x'] }, 'select').options).toEqual(['x']);
  });
});

describe('relabelled: ids follow labels until the form is first published or the id is edited', () => {
  const fields: FieldInput[] = [
    { id: 'question_1', type: 'text', label: 'Question 1' },
    { id: 'mine', type: 'text', label: 'Question 2' },
  ];
  it('makes the id again from the new label', () => {
    expect(relabelled(fields, 0, 'Your name', true)[0]).toEqual({
      id: 'your_name',
      type: 'text',
      label: 'Your name',
    });
  });
  it('keeps an id edited by hand', () => {
    expect(relabelled(fields, 1, 'Your name', true)[1]?.id).toBe('mine');
  });
  it('keeps every id once the form has been published', () => {
    expect(relabelled(fields, 0, 'Your name', false)[0]?.id).toBe('question_1');
  });
  it('keeps ids unique, and follows a numbered one', () => {
    const two: FieldInput[] = [
      { id: 'name', type: 'text', label: 'Name' },
      { id: 'field', type: 'text', label: '' },
    ];
    const named = relabelled(two, 1, 'Name', true);
    expect(named[1]?.id).toBe('name_2');
    expect(relabelled(named, 1, 'Name here', true)[1]?.id).toBe('name_here');
  });
  it('knows an id it made', () => {
    expect(idCameFrom('your_name', 'Your name')).toBe(true);
    expect(idCameFrom('your_name_3', 'Your name')).toBe(true);
    expect(idCameFrom('name', 'Your name')).toBe(false);
  });
});

describe('options as rows', () => {
  it('stores an option as its words until a value is set apart, and back', () => {
    expect(withOptionLabel('Sales', 'Sales team')).toBe('Sales team');
    expect(withOptionValue('Sales', 'sales')).toEqual({ value: 'sales', label: 'Sales' });
    expect(withOptionLabel({ value: 'sales', label: 'Sales' }, 'Sales team')).toEqual({
      value: 'sales',
      label: 'Sales team',
    });
    expect(withOptionValue({ value: 'sales', label: 'Sales' }, '')).toBe('Sales');
    expect(withOptionValue({ value: 'sales', label: 'Sales' }, 'Sales')).toBe('Sales');
  });
  it('names a new option with a number not yet used', () => {
    expect(nextOptionLabel(['Option 1', 'Option 3'])).toBe('Option 4');
    expect(nextOptionLabel(['Option 3', 'Yes'])).toBe('Option 4');
    expect(nextOptionLabel([])).toBe('Option 1');
  });
  it('moves one place up or down, and nothing past an end', () => {
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });
});

describe('tabOfMember', () => {
  it('finds the tab holding the control a refusal names', () => {
    expect(tabOfMember('fields[2].pattern')).toBe('build');
    expect(tabOfMember('title')).toBe('build');
    expect(tabOfMember('logic.rules[0]')).toBe('build');
    expect(tabOfMember('ui.accentColor')).toBe('design');
    expect(tabOfMember('ui.redirectUrl')).toBe('settings');
    expect(tabOfMember('retention.days')).toBe('settings');
  });
});
