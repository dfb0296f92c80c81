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
    expect(new Set(types).size).toBe(12);
    for (const kind of FIELD_KINDS) expect(kind.description).toMatch(/^[A-Z].+\.$/);
  });
  it('offers file uploads, and keeps Hidden last', () => {
    expect(FIELD_KINDS.find((kind) => kind.type === 'file')?.name).toBe('File upload');
    expect(FIELD_KINDS.at(-1)?.type).toBe('hidden');
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
  it('starts a file field as an attachment with the defaults (one file, 10 MB, any type) left unsaid', () => {
    expect(newField('file', [])).toEqual({ id: 'attachment', type: 'file', label: 'Attachment' });
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

describe('withType leaves behind what the new type does not take (the server would refuse it)', () => {
  const defined = (field: FieldInput) =>
    Object.fromEntries(Object.entries(field).filter(([, value]) => value !== undefined));
  it('a text field turned file: no placeholder, lengths or pattern', () => {
    const text: FieldInput = {
      id: 'cv',
      type: 'text',
      label: 'CV',
      required: true,
      help: 'Your latest',
      placeholder: 'Paste a link',
      minLength: 2,
      maxLength: 90,
      pattern: '^h',
      pii: true,
      piiMode: 'encrypted',
    };
    expect(defined(withType(text, 'file'))).toEqual({
      id: 'cv',
      type: 'file',
      label: 'CV',
      required: true,
      help: 'Your latest',
      pii: true,
      piiMode: 'encrypted',
    });
  });
  it('a choice turned file: no options; a file turned text: no limits or accepted types', () => {
    const choice: FieldInput = {
      id: 'a',
      type: 'select',
      label: 'A',
      options: ['x'],
      multiple: true,
      display: 'tiles',
    };
    expect(defined(withType(choice, 'file'))).toEqual({ id: 'a', type: 'file', label: 'A' });
    const file: FieldInput = {
      id: 'a',
      type: 'file',
      label: 'A',
      maxFiles: 3,
      maxFileSize: 1024,
      accept: ['.pdf'],
    };
    expect(defined(withType(file, 'text'))).toEqual({ id: 'a', type: 'text', label: 'A' });
    expect(defined(withType(file, 'select'))).toEqual({
      id: 'a',
      type: 'select',
      label: 'A',
      options: ['Option 1', 'Option 2'],
    });
  });
  it('says a member left behind as undefined, so that a change merged into the field takes it away', () => {
    const number: FieldInput = { id: 'n', type: 'number', label: 'N', min: 1, integer: true };
    const merged = { ...number, ...withType(number, 'file') };
    expect(JSON.parse(JSON.stringify(merged))).toEqual({ id: 'n', type: 'file', label: 'N' });
    // between types that take the same members, they stay
    expect(withType({ id: 't', type: 'text', label: 'T', maxLength: 5 }, 'textarea').maxLength).toBe(5);
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
