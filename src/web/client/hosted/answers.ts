import type { Logic } from '../../../shared/form.js';
import { isAnswered, visibleAnswers } from '../../../shared/logic.js';
import { answeredOf } from '../../../shared/messages.js';
import { pageWords } from './words.js';

/**
 * Live conditional logic on a classic page (API.md §11.1: fields shown and hidden as the
 * respondent answers): the very module the server decides with (shared/logic.ts), run on the
 * answers read off the page as a post would give them (submissions/form-posts.ts parseAnswer).
 * A hidden field's controls are disabled, so its answer is neither checked nor sent.
 */

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const rules = new WeakMap<HTMLFormElement, Logic>();

/** A field's controls: the element itself (a hidden field's input) or the controls inside it. */
export const controlsOf = (element: Element): Control[] =>
  element.matches('input')
    ? [element as Control]
    : [...element.querySelectorAll<Control>('input,select,textarea')];

const asNumber = (text: string): unknown =>
  text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

/**
 * The page's answers, by field id, as a post would give them: a ticked box true, a number a
 * number, a choice its option's value, a choice of several a list; blanks, and the fields in `hidden` (which a post leaves
 * out: their controls are disabled), left out.
 */
export function readAnswers(
  form: HTMLFormElement,
  hidden: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const element of form.querySelectorAll<HTMLElement>('[data-field]')) {
    const id = element.dataset.field ?? '';
    if (hidden.has(id)) continue;
    if (element.matches('.field--file')) {
      // the files it holds (their upload ids) and those chosen and not sent yet (their names)
      answers[id] = controlsOf(element).flatMap((control) =>
        control.type === 'hidden'
          ? [control.value]
          : [...((control as HTMLInputElement).files ?? [])].map((file) => file.name),
      );
      continue;
    }
    if (element.matches('.field--choices')) {
      // a choice's tiles: its option values, as a post sends them (text, never a number or true)
      const chosen = controlsOf(element)
        .filter((control) => (control as HTMLInputElement).checked)
        .map((control) => control.value);
      if (controlsOf(element)[0]?.type === 'checkbox') answers[id] = chosen;
      else if (chosen[0] !== undefined) answers[id] = chosen[0];
      continue;
    }
    for (const control of controlsOf(element)) {
      if (control instanceof HTMLSelectElement) {
        const chosen = [...control.selectedOptions].map((option) => option.value).filter(Boolean);
        if (control.multiple) answers[id] = chosen;
        else if (chosen[0] !== undefined) answers[id] = chosen[0];
      } else if (
        control instanceof HTMLInputElement &&
        (control.type === 'checkbox' || control.type === 'radio')
      ) {
        if (control.checked) answers[id] = control.type === 'checkbox' ? true : asNumber(control.value);
      } else if (control.value !== '') {
        answers[id] = control.type === 'number' ? asNumber(control.value) : control.value;
      }
    }
  }
  return answers;
}

const same = (a: ReadonlySet<string>, b: ReadonlySet<string>) =>
  a.size === b.size && [...a].every((id) => b.has(id));

/**
 * The fields the logic hides, as the server will decide it from the post this page would send:
 * the answers of the fields shown (a hidden field's control is disabled, so its answer is not
 * sent), run through the server's module. Showing or hiding a field changes what is sent, so
 * it is repeated until the page and the post agree.
 */
export function hiddenOnPage(form: HTMLFormElement, logic: Logic, hidden: ReadonlySet<string>): Set<string> {
  let current = new Set(hidden);
  for (let round = 0; round <= logic.rules.length + 1; round++) {
    const next = visibleAnswers(logic, readAnswers(form, current)).hidden;
    if (same(next, current)) break;
    current = next;
  }
  return current;
}

/** Shows the fields the logic shows and hides the others, given the answers on the page now. */
export function applyLogic(form: HTMLFormElement): void {
  const text = form.dataset.logic;
  if (!text) return;
  let logic = rules.get(form);
  if (!logic) {
    logic = JSON.parse(text) as Logic;
    rules.set(form, logic);
  }
  const elements = [...form.querySelectorAll<HTMLElement>('[data-field]')];
  const now = new Set(
    elements.filter((element) => element.hidden).map((element) => element.dataset.field ?? ''),
  );
  const hidden = hiddenOnPage(form, logic, now);
  for (const element of elements) {
    const hide = hidden.has(element.dataset.field ?? '');
    if (element.hidden === hide) continue;
    element.hidden = hide;
    for (const control of controlsOf(element)) control.disabled = hide;
  }
}

/**
 * A classic page's progress bar (components/form `AnsweredBar`), live: the questions answered of
 * those shown, counted as the server counts them after a post (shared/logic.ts `isAnswered`).
 */
export function showProgress(form: HTMLFormElement): void {
  const bar = document.querySelector<HTMLProgressElement>('.progress-bar--answered');
  if (!bar) return;
  const elements = [...form.querySelectorAll<HTMLElement>('[data-field]')];
  const hidden = new Set(
    elements.filter((element) => element.hidden).map((element) => element.dataset.field ?? ''),
  );
  const answers = readAnswers(form, hidden);
  const shown = elements.filter((element) => element.matches('.field') && !element.hidden);
  const answered = shown.filter((element) => isAnswered(answers[element.dataset.field ?? ''])).length;
  const label = answeredOf(answered, shown.length, pageWords(form));
  bar.max = Math.max(shown.length, 1);
  bar.value = answered;
  bar.setAttribute('aria-label', label);
  bar.textContent = label;
}
