import { Window } from 'happy-dom';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { afterAll, describe, expect, it } from 'vitest';
import type { FormField } from '../../../shared/form.js';
import { Field, type FieldProps } from './fields.js';

/**
 * Each field type's component rendered to a string, as the server sends it, and read back as
 * a DOM (happy-dom): the control a person meets, named by exactly the field's label, posting
 * under the field's id, with the field's rules as the browser's own validation attributes, and
 * its help and error tied to it. One example per type.
 */

const window = new Window();
afterAll(() => window.happyDOM.close());

/** The field's markup as a DOM, and its control (the element with the control's id). */
function rendered(field: FormField, props: Omit<FieldProps, 'field'> = {}) {
  const host = window.document.createElement('div');
  host.innerHTML = renderToString(h(Field, { field, ...props }));
  const control = host.querySelector(`#field-${field.id}`);
  return { host, control };
}

/** The accessible name a `<label for>` gives a control: its words, without the aria-hidden required mark. */
function labelOf(host: ReturnType<typeof rendered>['host'], id: string): string | undefined {
  const label = host.querySelector(`label[for="${id}"]`)?.cloneNode(true);
  if (!label || !('querySelectorAll' in label)) return undefined;
  for (const hidden of label.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return label.textContent?.trim();
}

describe('one-line text fields', () => {
  it('text: an input named by its label, with its length and pattern rules', () => {
    const { host, control } = rendered({
      id: 'name',
      type: 'text',
      label: 'Your name',
      required: true,
      minLength: 2,
      maxLength: 80,
      pattern: '[A-Za-z ]+',
      placeholder: 'Ada',
    });
    expect(control?.tagName).toBe('INPUT');
    expect(control?.getAttribute('type')).toBe('text');
    expect(control?.getAttribute('name')).toBe('name');
    expect(labelOf(host, 'field-name')).toBe('Your name');
    expect(control?.hasAttribute('required')).toBe(true);
    expect(control?.getAttribute('minlength')).toBe('2');
    expect(control?.getAttribute('maxlength')).toBe('80');
    expect(control?.getAttribute('pattern')).toBe('[A-Za-z ]+');
    expect(control?.getAttribute('placeholder')).toBe('Ada');
    // the visible mark says "required" to the eye; the control's own attribute says it to the rest
    expect(host.querySelector('.field__required')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('email: type email, filled in by the browser, no spell checking', () => {
    const { control } = rendered(
      { id: 'mail', type: 'email', label: 'E-mail' },
      { value: 'ada@example.com' },
    );
    expect(control?.getAttribute('type')).toBe('email');
    expect(control?.getAttribute('autocomplete')).toBe('email');
    expect(control?.getAttribute('spellcheck')).toBe('false');
    expect(control?.getAttribute('value')).toBe('ada@example.com');
  });

  it('url: type url', () => {
    const { control } = rendered({ id: 'site', type: 'url', label: 'Web site' });
    expect(control?.getAttribute('type')).toBe('url');
    expect(control?.getAttribute('autocomplete')).toBe('url');
  });

  it('phone: type tel', () => {
    const { control } = rendered({ id: 'phone', type: 'phone', label: 'Phone' });
    expect(control?.getAttribute('type')).toBe('tel');
    expect(control?.getAttribute('autocomplete')).toBe('tel');
  });
});

describe('the other field types', () => {
  it('textarea: several lines, with its length rules and the answer kept', () => {
    const { host, control } = rendered(
      { id: 'message', type: 'textarea', label: 'Message', maxLength: 500 },
      { value: 'Hello' },
    );
    expect(control?.tagName).toBe('TEXTAREA');
    expect(labelOf(host, 'field-message')).toBe('Message');
    expect(control?.getAttribute('maxlength')).toBe('500');
    expect(control?.textContent).toBe('Hello');
  });

  it('number: its bounds, any step unless whole numbers are asked for', () => {
    const decimal = rendered({ id: 'amount', type: 'number', label: 'Amount', min: 0.5, max: 10 }).control;
    expect(decimal?.getAttribute('type')).toBe('number');
    expect([
      decimal?.getAttribute('min'),
      decimal?.getAttribute('max'),
      decimal?.getAttribute('step'),
    ]).toEqual(['0.5', '10', 'any']);
    const whole = rendered({ id: 'count', type: 'number', label: 'Count', integer: true, min: 0.5 }).control;
    // the browser counts steps from min: a whole number's bound is whole
    expect([whole?.getAttribute('min'), whole?.getAttribute('step')]).toEqual(['1', '1']);
    expect(whole?.getAttribute('inputmode')).toBe('numeric');
  });

  /** A group's accessible name as its legend gives it: the text, without what is hidden from assistive technology. */
  const legendOf = (host: ReturnType<typeof rendered>['host'], id: string): string | undefined => {
    const legend = host.querySelector(`fieldset#group-${id} legend`)?.cloneNode(true);
    if (!legend) return undefined;
    for (const hidden of legend.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
    return legend.textContent ?? undefined;
  };

  it('select of up to seven options: radio tiles in a group its label names, the answer ticked', () => {
    const { host, control } = rendered(
      {
        id: 'topic',
        type: 'select',
        label: 'Topic',
        required: true,
        options: ['sales', { value: 'support', label: 'Support' }],
      },
      { value: 'support' },
    );
    const group = host.querySelector('fieldset#group-topic');
    expect(legendOf(host, 'topic')).toBe('Topic');
    expect(host.querySelector('select')).toBeNull();
    expect(control?.getAttribute('type')).toBe('radio');
    const radios = [...(group?.querySelectorAll('input[type="radio"]') ?? [])];
    expect(radios.map((radio) => [radio.getAttribute('name'), radio.getAttribute('value')])).toEqual([
      ['topic', 'sales'],
      ['topic', 'support'],
    ]);
    // each option's name is its label (the tile is the label element around the radio)
    expect(radios.map((radio) => radio.closest('label')?.textContent)).toEqual(['sales', 'Support']);
    expect(
      radios.filter((radio) => radio.hasAttribute('checked')).map((radio) => radio.getAttribute('value')),
    ).toEqual(['support']);
    expect(radios.every((radio) => radio.hasAttribute('required'))).toBe(true);
  });

  it('select of more than seven options, or the author’s "dropdown": a dropdown after a blank first option', () => {
    const eight = Array.from({ length: 8 }, (_, i) => `option ${i + 1}`);
    for (const field of [
      { id: 'topic', type: 'select', label: 'Topic', options: eight },
      {
        id: 'topic',
        type: 'select',
        label: 'Topic',
        display: 'dropdown',
        options: ['sales', { value: 'support', label: 'Support' }],
      },
    ] satisfies FormField[]) {
      const { host, control } = rendered(field, {
        value: field.options[1] === 'option 2' ? 'option 2' : 'support',
      });
      expect(control?.tagName, field.display).toBe('SELECT');
      expect(control?.hasAttribute('multiple')).toBe(false);
      expect(labelOf(host, 'field-topic')).toBe('Topic');
      const options = [...(control?.querySelectorAll('option') ?? [])];
      expect(options[0]?.getAttribute('value')).toBe('');
      expect(options[0]?.textContent).toBe('Choose…');
      expect(options.length).toBe(field.options.length + 1);
      expect(options.filter((option) => option.hasAttribute('selected')).length).toBe(1);
    }
    // "tiles" asked for: tiles, whatever the count
    const { control } = rendered({
      id: 'topic',
      type: 'select',
      label: 'Topic',
      display: 'tiles',
      options: eight,
    });
    expect(control?.getAttribute('type')).toBe('radio');
  });

  it('select, several answers: checkbox tiles (a scrolling list of checkboxes past seven), never a list box', () => {
    const { host, control } = rendered(
      {
        id: 'days',
        type: 'select',
        label: 'Days',
        multiple: true,
        required: true,
        options: ['mon', 'tue', 'wed'],
      },
      { value: ['mon', 'wed'] },
    );
    const group = host.querySelector('fieldset#group-days');
    expect(legendOf(host, 'days')).toBe('Days');
    expect(host.querySelector('select')).toBeNull();
    expect(control?.getAttribute('type')).toBe('checkbox');
    expect(group?.getAttribute('aria-describedby')).toBe('hint-days');
    expect(host.querySelector('#hint-days')?.textContent).toBe('Choose one or more.');
    expect(host.textContent).not.toMatch(/Ctrl/);
    // a required group: no box is required on its own (that would ask for every one); the page's script is told
    expect(group?.hasAttribute('data-required')).toBe(true);
    expect(group?.querySelectorAll('input[required]').length).toBe(0);
    const ticked = [...(group?.querySelectorAll('input[checked]') ?? [])].map((box) =>
      box.getAttribute('value'),
    );
    expect(ticked).toEqual(['mon', 'wed']);
    expect(group?.querySelector('.choices--tiles')).not.toBeNull();

    const many = rendered({
      id: 'days',
      type: 'select',
      label: 'Days',
      multiple: true,
      options: Array.from({ length: 12 }, (_, i) => `day ${i + 1}`),
    });
    expect(many.host.querySelector('select')).toBeNull();
    expect(many.host.querySelectorAll('.choices--list input[type="checkbox"]').length).toBe(12);
    expect(many.host.querySelector('#hint-days')?.textContent).toBe('Choose any that apply.');
  });

  it('checkbox: one box sending "on", ticked by an earlier answer', () => {
    const { host, control } = rendered(
      { id: 'agree', type: 'checkbox', label: 'I agree', required: true },
      { value: true },
    );
    expect(control?.getAttribute('type')).toBe('checkbox');
    expect(control?.getAttribute('value')).toBe('on');
    expect(control?.hasAttribute('checked')).toBe(true);
    expect(control?.hasAttribute('required')).toBe(true);
    expect(labelOf(host, 'field-agree')).toBe('I agree');
  });

  it('date: a date input, YYYY-MM-DD as the server takes it', () => {
    const { host, control } = rendered({ id: 'when', type: 'date', label: 'Date' }, { value: '2026-11-26' });
    expect(control?.getAttribute('type')).toBe('date');
    expect(control?.getAttribute('value')).toBe('2026-11-26');
    expect(labelOf(host, 'field-when')).toBe('Date');
  });

  it('rating: radio buttons from min to max in a group its label names', () => {
    const { host } = rendered(
      { id: 'score', type: 'rating', label: 'How was it?', min: 1, max: 5 },
      { value: 4 },
    );
    const group = host.querySelector('fieldset#group-score');
    expect(group?.querySelector('legend')?.textContent).toBe('How was it?');
    const radios = [...host.querySelectorAll('input[type="radio"]')];
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['1', '2', '3', '4', '5']);
    expect(radios.every((radio) => radio.getAttribute('name') === 'score')).toBe(true);
    expect(
      radios.filter((radio) => radio.hasAttribute('checked')).map((radio) => radio.getAttribute('value')),
    ).toEqual(['4']);
    // the first radio carries the control's id: the error summary's link lands on the group's first choice
    expect(radios[0]?.id).toBe('field-score');
  });

  it('rating on a wide scale: a whole number input instead of a row of buttons', () => {
    const { control } = rendered({ id: 'score', type: 'rating', label: 'Score', min: 0, max: 100 });
    expect(control?.getAttribute('type')).toBe('number');
    expect([
      control?.getAttribute('min'),
      control?.getAttribute('max'),
      control?.getAttribute('step'),
    ]).toEqual(['0', '100', '1']);
  });

  it('hidden: an input the page posts as it came (from the link), with no label', () => {
    const { host } = rendered({ id: 'source', type: 'hidden', label: 'Source' }, { value: 'newsletter' });
    const input = host.querySelector('input[name="source"]');
    expect(input?.getAttribute('type')).toBe('hidden');
    expect(input?.getAttribute('value')).toBe('newsletter');
    expect(host.querySelector('label')).toBeNull();
  });
});

describe('what is said about a field', () => {
  it('ties its help, when it applies and its error to the control, the error marked invalid', () => {
    const { host, control } = rendered(
      { id: 'name', type: 'text', label: 'Name', help: 'As on your passport' },
      { error: 'Enter your name', note: 'Answer this only if …' },
    );
    expect(control?.getAttribute('aria-describedby')).toBe('help-name when-name error-name');
    expect(control?.getAttribute('aria-invalid')).toBe('true');
    expect(host.querySelector('#help-name')?.textContent).toBe('As on your passport');
    expect(host.querySelector('#error-name')?.textContent).toBe('Error: Enter your name');
    expect(host.querySelector('.field')?.classList.contains('field--invalid')).toBe(true);
  });

  it('makes the label the page’s heading when the field is its one question, described by its position', () => {
    const { host } = rendered(
      { id: 'name', type: 'text', label: 'Name' },
      { heading: true, position: 'position' },
    );
    const heading = host.querySelector('h2.field__heading');
    expect(heading?.getAttribute('aria-describedby')).toBe('position');
    expect(heading?.querySelector('label')?.getAttribute('for')).toBe('field-name');
  });
});
