import type { Words } from '../../../shared/i18n/words.js';
import { errorSentence, FIELD_MESSAGES as M, requiredMessageOf } from '../../../shared/messages.js';
import { controlsOf } from './answers.js';
import { pageWords } from './words.js';

/**
 * Checks before a post (API.md §11.1), mirroring the server's: the rules are the controls' own
 * attributes (required, minlength, maxlength, pattern, min, max, step, type), which the server
 * rendered from the field's rules, and the messages are the validator's own table
 * (shared/messages.ts). The server stays the judge: what passes here is checked again, and its
 * answer replaces the page.
 *
 * The error summary and the messages are the markup the server renders (components/form:
 * ErrorSummary, Field), built here with the DOM: rendering the components themselves would bring
 * Preact into the page, about 4.5 kB of the 8 kB budget.
 */

type Control = ReturnType<typeof controlsOf>[number];

/** The validator's words (shared/messages.ts) for what the browser found wrong with a control. */
function messageFor(field: HTMLElement, control: Control, words: Words): string {
  const { validity } = control;
  const input = control as HTMLInputElement;
  if (validity.valueMissing) return M[requiredMessageOf(kindOf(field, control))].say(words);
  if (validity.typeMismatch) return (input.type === 'email' ? M.notEmail : M.notUrl).say(words);
  if (validity.tooShort) return M.tooShort.say(words, input.minLength);
  if (validity.tooLong) return M.tooLong.say(words, input.maxLength);
  if (validity.patternMismatch) return M.notPattern.say(words);
  if (validity.badInput) return (input.type === 'date' ? M.notDate : M.notNumber).say(words);
  // the limits as the page wrote them from the field's min and max
  if (validity.rangeUnderflow) return M.belowMinimum.say(words, Number(input.min));
  if (validity.rangeOverflow) return M.aboveMaximum.say(words, Number(input.max));
  if (validity.stepMismatch) return M.notWhole.say(words);
  return M.invalid.say(words);
}

/** What the field is, as shared/messages.ts `requiredMessageOf` tells its missing answer. */
const kindOf = (field: HTMLElement, control: Control) => ({
  type: field.matches('.field--checkbox')
    ? 'checkbox'
    : field.matches('.field--file')
      ? 'file'
      : field.matches('.field--rating')
        ? 'rating'
        : control instanceof HTMLSelectElement || field.matches('.field--choices')
          ? 'select'
          : 'text',
  multiple: control.type === 'checkbox' && field.matches('.field--choices'),
});

/** A required choice of several (tiles or a list of checkboxes) with none ticked: no attribute of the browser's says it. */
const noneChosen = (field: HTMLElement): boolean =>
  field.dataset.required !== undefined &&
  !controlsOf(field).some((control) => !control.disabled && (control as HTMLInputElement).checked);

/** An element with its attributes and children (the page's markup, built without a library). */
export const element = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
};

/** Whether the form's shown fields pass; if not, the error summary (focused) and each field's message. */
export function checkForm(form: HTMLFormElement): boolean {
  const errors: Shown[] = [];
  const words = pageWords(form);
  for (const field of form.querySelectorAll<HTMLElement>('.field[data-field]')) {
    if (field.hidden) continue;
    const failing = controlsOf(field).find((control) => !control.disabled && !control.validity.valid);
    const message = failing
      ? messageFor(field, failing, words)
      : noneChosen(field)
        ? M.requiredChoices.say(words)
        : undefined;
    if (message === undefined) continue;
    errors.push({ id: field.dataset.field ?? '', message });
  }
  clearErrors(form);
  if (errors.length > 0) showErrors(form, errors, words);
  return errors.length === 0;
}

/** Takes away the errors on the page (the server's from the last post, or this script's). */
export function clearErrors(form: HTMLFormElement): void {
  document.querySelector('.error-summary')?.remove();
  clearMarks(form);
  const prefix = pageWords(form).say('errorTitle', { title: '' });
  if (document.title.startsWith(prefix)) document.title = document.title.slice(prefix.length);
}

/** Takes away the messages within `root` (the form, or one field), and what tied them to the controls. */
export function clearMarks(root: HTMLElement): void {
  for (const message of root.querySelectorAll('.field__error')) message.remove();
  root.classList.remove('field--invalid');
  for (const field of root.querySelectorAll('.field--invalid')) field.classList.remove('field--invalid');
  for (const control of root.querySelectorAll('[aria-invalid]')) {
    control.removeAttribute('aria-invalid');
  }
  for (const described of [root, ...root.querySelectorAll('[aria-describedby]')]) {
    const kept = (described.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter((id) => id && !id.startsWith('error-'));
    if (kept.length > 0) described.setAttribute('aria-describedby', kept.join(' '));
    else described.removeAttribute('aria-describedby');
  }
}

/** An error as the page shows it (components/form: `ErrorSummary`, `Field`): the field's id, and the message. */
interface Shown {
  id: string;
  message: string;
}

function showErrors(form: HTMLFormElement, errors: Shown[], words: Words): void {
  for (const { id, message } of errors) {
    const field = form.querySelector<HTMLElement>(`.field[data-field="${CSS.escape(id)}"]`);
    if (field) showFieldError(field, message);
  }
  const summary = element(
    'section',
    { class: 'error-summary', tabindex: '-1', 'aria-labelledby': 'summary-title' },
    element('h2', { class: 'error-summary__title', id: 'summary-title' }, words.say('errorSummaryTitle')),
    element(
      'ul',
      { class: 'error-summary__list' },
      ...errors.map(({ id, message }) => {
        const label = form.querySelector<HTMLElement>(`.field[data-field="${CSS.escape(id)}"]`)?.dataset
          .label;
        return element(
          'li',
          {},
          element('a', { href: `#field-${id}` }, errorSentence(label, message, words)),
        );
      }),
    ),
  );
  form.before(summary);
  document.title = words.say('errorTitle', { title: document.title });
  summary.focus();
}

/** A field's message, where the server puts it (under the label, its help, its limits and its note, above the control), tied to its controls. */
export function showFieldError(field: HTMLElement, said: string): void {
  const id = field.dataset.field ?? '';
  const words = pageWords(field);
  field.classList.add('field--invalid');
  const message = element(
    'p',
    { class: 'field__error', id: `error-${id}` },
    element('span', { class: 'visually-hidden' }, `${words.say('errorPrefix')} `),
    // under its question the message stands alone; the summary names the question
    errorSentence(undefined, said, words),
  );
  const anchor =
    document.getElementById(`when-${id}`) ??
    document.getElementById(`limits-${id}`) ??
    document.getElementById(`help-${id}`) ??
    field.querySelector(
      ':scope > .field__heading, :scope > .field__label, :scope > .field__label-line, :scope > .check--heading',
    );
  if (anchor && field.contains(anchor)) anchor.after(message);
  else field.prepend(message);
  const described = field.matches('fieldset') ? [field] : controlsOf(field);
  for (const control of described) {
    const ids = control.getAttribute('aria-describedby');
    control.setAttribute('aria-describedby', ids ? `${ids} error-${id}` : `error-${id}`);
  }
  for (const control of controlsOf(field)) control.setAttribute('aria-invalid', 'true');
}
