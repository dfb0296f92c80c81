import { applyLogic, showProgress } from './answers.js';
import { checkForm } from './checks.js';
import { enhanceFiles, filesChosen, uploadsDone } from './files.js';
import { framePageShown, frameRedirect, startFrame } from './frame.js';

/**
 * The hosted page's one script (API.md §11.1; hosted/document.tsx loads it as a module). The
 * page works without it; with it:
 * - a post goes by fetch, and the page the server answers with replaces this one (the same
 *   HTML a reload would show): the one-by-one layout steps without page loads, and the server
 *   stays the judge of every answer and of the logic between questions;
 * - fields are shown and hidden as they are answered (answers.ts, the server's logic module), and
 *   a classic page's progress bar counts the questions answered;
 * - answers are checked before they are sent (checks.ts), the error summary taking focus;
 * - a file field's files are checked and uploaded as they are chosen (files.ts), and a post
 *   waits for the uploads on their way;
 *   focus moves to the next question's control on each step (so what is typed after Enter lands
 *   there, and a phone's keyboard opens), to the thank-you heading at the end; at load, to the
 *   first question's control on a desktop;
 * - the `start` event is sent at the first answer given (the server counted the `view`);
 * - a CAPTCHA widget on a page swapped in is rendered by its provider's script;
 * - embedded, the frame's parent hears of its height and events (frame.ts).
 */

const FORM = 'form[data-form]';
const formOf = (target: EventTarget | null) =>
  target instanceof Element ? target.closest<HTMLFormElement>(FORM) : null;

function hiddenInput(name: string, value: string): HTMLInputElement {
  const input = document.createElement('input');
  input.type = 'hidden';
  input.name = name;
  input.value = value;
  return input;
}

/** Whether this page's `start` is on its way (sent once a session; the server ignores a repeat). */
let starting = false;

/**
 * The first answer given: the `start` event. Once the server has it, `_started` tells the
 * page's posts that it is counted; if it never arrives, the first post counts it instead.
 */
function started(form: HTMLFormElement): void {
  if (starting || form.querySelector('[name="_started"]')) return;
  const sessionId = form.querySelector<HTMLInputElement>('[name="_session"]')?.value;
  // the owner's preview counts nothing
  if (!sessionId || document.querySelector('.preview-banner')) return;
  starting = true;
  fetch(`/v1/forms/${encodeURIComponent(form.dataset.form ?? '')}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'start', sessionId }),
  })
    // read to its (empty) end: a body left unread is cancelled, and reported as a failed request
    .then(async (answer) => {
      await answer.arrayBuffer();
      if (answer.ok) document.querySelector(FORM)?.append(hiddenInput('_started', '1'));
    })
    .catch(() => {
      // analytics never stand in the way of an answer
    });
}

function answered(event: Event): void {
  const form = formOf(event.target);
  if (!form) return;
  started(form);
  applyLogic(form);
  showProgress(form);
}

async function submitted(event: SubmitEvent): Promise<void> {
  const form = formOf(event.target);
  if (!form) return;
  event.preventDefault();
  if (form.getAttribute('aria-busy') === 'true') return;
  const submitter = event.submitter as HTMLButtonElement | null;
  form.setAttribute('aria-busy', 'true');
  try {
    // the files on their way are part of the answer; one refused meanwhile is told at its field
    if (!(await uploadsDone(form))) return;
    // Back and Save never validate (their formnovalidate, which this script's novalidate replaces)
    if (submitter?.value !== 'back' && submitter?.value !== 'save' && !checkForm(form)) return;
    const data = new FormData(form, submitter);
    // a page with a file field posts as multipart/form-data (its enctype); any other as before
    const body = form.enctype === 'multipart/form-data' ? data : new URLSearchParams();
    if (body instanceof URLSearchParams)
      for (const [name, value] of data) if (typeof value === 'string') body.append(name, value);
    const answer = await fetch(form.action, { method: 'POST', body, headers: { 'x-intake-page': '1' } });
    // the form's ui.redirectUrl, which a fetch may not follow to another origin
    const redirect = answer.headers.get('x-intake-redirect');
    if (redirect) {
      if (!frameRedirect(redirect, answer.headers.get('x-intake-submission'))) location.assign(redirect);
      return;
    }
    const page = (answer.headers.get('content-type') ?? '').startsWith('text/html')
      ? new DOMParser().parseFromString(await answer.text(), 'text/html')
      : undefined;
    // Only a page of this form takes this one's place (the next question, the form with its
    // errors, the thank-you page). Anything else (a limit reached, a server in trouble, a
    // proxy's own page) the browser is left to show as it would without this script.
    if (!page?.querySelector('main.hosted .form-card'))
      throw new Error(`not a page of the form (${answer.status})`);
    document.title = page.title;
    document.body.replaceWith(document.adoptNode(page.body));
    shown(true);
  } catch {
    // The browser posts the page itself. It carries the same idempotency key, so a post that
    // did arrive is never stored twice.
    if (submitter?.name) form.append(hiddenInput(submitter.name, submitter.value));
    form.submit();
  } finally {
    form.removeAttribute('aria-busy');
  }
}

/** A page shown: at load, or swapped in (then focus goes where a person reads on). */
function shown(swapped: boolean): void {
  const form = document.querySelector<HTMLFormElement>(FORM);
  if (form) {
    // this script checks answers itself, in the page's words, before a post
    form.noValidate = true;
    enhanceFiles(form);
    applyLogic(form);
    showProgress(form);
  }
  framePageShown(swapped);
  if (swapped) {
    renderCaptchas();
    const target =
      document.querySelector<HTMLElement>('.error-summary') ??
      firstControl(form) ??
      document.querySelector<HTMLElement>('h1');
    if (target) {
      if (!(target instanceof HTMLInputElement || target.hasAttribute('tabindex'))) target.tabIndex = -1;
      target.focus();
    }
  } else if (form && landsOnFirstQuestion()) {
    firstControl(form)?.focus();
  }
}

/**
 * Where a person types: the first shown question's control (a choice's ticked option, else its
 * first). Its label stays its accessible name; on a one-by-one page it is described by where
 * the question stands ("Question 2 of 6"), so a screen reader says that too.
 */
function firstControl(form: HTMLFormElement | null): HTMLElement | null {
  const field = form && [...form.querySelectorAll<HTMLElement>('.field[data-field]')].find((f) => !f.hidden);
  if (!field) return null;
  const controls = [...field.querySelectorAll<HTMLInputElement>('input,select,textarea')].filter(
    (control) => !control.disabled,
  );
  return controls.find((control) => control.checked) ?? controls[0] ?? null;
}

/**
 * At load, focus goes to the first question only on a desktop: a page of its own (a frame's
 * focus would pull its host page's scroll), a fine pointer (on a phone, focus would open the
 * keyboard over the form before it is read), and nothing asking for the focus already (the
 * error summary's autofocus, a link to a part of the page).
 */
const landsOnFirstQuestion = (): boolean =>
  window.top === window &&
  matchMedia('(pointer: fine)').matches &&
  location.hash === '' &&
  (document.activeElement === null || document.activeElement === document.body);

/**
 * A CAPTCHA widget on a swapped-in page: its provider's script rendered only those there at
 * load. The widget names the provider's global (`data-api`), so this script needs no table of
 * providers (and shares no module with the dashboard, which would split it into two files).
 */
function renderCaptchas(): void {
  const globals = window as unknown as Record<
    string,
    { render?: (...args: unknown[]) => unknown } | undefined
  >;
  for (const widget of document.querySelectorAll<HTMLElement>('[data-captcha]')) {
    const api = globals[widget.dataset.api ?? ''];
    if (widget.childElementCount === 0) api?.render?.(widget, { sitekey: widget.dataset.sitekey });
  }
}

// the page is enhanced (its stylesheet, and tests, may tell)
document.documentElement.classList.add('js');
document.addEventListener('input', answered);
document.addEventListener('change', answered);
document.addEventListener('change', filesChosen);
document.addEventListener('submit', submitted);
// embedded, the error summary's autofocus is refused in another origin's frame: focused here
if (startFrame()) document.querySelector<HTMLElement>('.error-summary')?.focus();
shown(false);
