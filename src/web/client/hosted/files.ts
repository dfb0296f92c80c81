import { type FileLimits, fileProblem, tooMany } from '../../../shared/file-rules.js';
import { sizeInWords } from '../../../shared/messages.js';
import { clearMarks, element, showFieldError } from './checks.js';
import { pageWords } from './words.js';

/**
 * A file field with the page's script (API.md §12, "page scripts"): chosen files are checked
 * against the field's limits first, in the validator's words (shared/file-rules.ts), and sent
 * nowhere when one fails; the others are uploaded one by one (`POST /forms/{id}/uploads`, by
 * XMLHttpRequest, whose upload reports its progress), each a row of the field's list with a
 * progress bar and a Remove button, then the upload's id in a hidden input that the page posts
 * under the field's id. The file input is emptied, so its bytes are not posted again with the
 * page. The field's status line (role=status) tells each change. In the owner's preview nothing
 * is uploaded: the files stay in the input (the page says so under the label).
 *
 * The limits are read off the input, where components/form `FileField` wrote them.
 */

/** The uploads on their way, by their row: Remove aborts one. */
const requests = new WeakMap<Element, XMLHttpRequest>();
/** Each upload on its way, settled when its request ends, however it ends. */
const pending = new Set<Promise<unknown>>();
/** Uploads refused or failed so far: a post that waited for the uploads goes on only if none failed meanwhile. */
let failures = 0;

const limitsOf = (input: HTMLInputElement): FileLimits => ({
  maxFiles: Number(input.dataset.maxFiles) || 1,
  maxFileSize: Number(input.dataset.maxSize) || Number.POSITIVE_INFINITY,
  accept: input.accept ? input.accept.split(',') : [],
  acceptText: input.dataset.acceptText ?? '',
});

const fileInputOf = (field: Element) => field.querySelector<HTMLInputElement>('input[type=file]');

/** Tells the field's change to a screen reader (its status line, polite). */
function say(field: Element, text: string): void {
  const status = field.querySelector('[role=status]');
  if (status) status.textContent = text;
}

function refuse(field: HTMLElement, message: string): void {
  clearMarks(field);
  showFieldError(field, message);
  say(field, message);
}

/**
 * After the list changed: a file held answers a required field (its input is then no longer
 * `required`, until the last one is removed), and the logic and the progress bar read the answers again.
 */
function changed(field: HTMLElement): void {
  const input = fileInputOf(field);
  if (input)
    input.required =
      input.dataset.required !== undefined && !field.querySelector('.uploads input[type=hidden]');
  field.dispatchEvent(new Event('change', { bubbles: true }));
}

/** A row's Remove button: the file taken off the list (its upload aborted if on its way), focus back on the input. */
function removeButton(row: Element, name: string): HTMLButtonElement {
  const button = element(
    'button',
    { type: 'button', class: 'button button--secondary button--small upload__remove' },
    pageWords(row).say('removeFile'),
    element('span', { class: 'visually-hidden' }, ` ${name}`),
  );
  button.onclick = () => {
    const field = row.closest<HTMLElement>('.field--file');
    discard(row);
    if (!field) return;
    say(field, pageWords(field).say('fileRemoved', { name }));
    fileInputOf(field)?.focus();
    changed(field);
  };
  return button;
}

function discard(row: Element): void {
  requests.get(row)?.abort();
  row.remove();
}

/** What an upload refused without a field's message is told as. */
function refusal(status: number, name: string, field: Element): string {
  const words = pageWords(field);
  if (status === 413) return words.say('uploadTooLarge', { name });
  if (status === 429) return words.say('uploadTooMany');
  if (status >= 500) return words.say('uploadUnavailable');
  return words.say('uploadFailed', { name });
}

function upload(form: HTMLFormElement, field: HTMLElement, file: File): void {
  const fieldId = field.dataset.field ?? '';
  const bar = element('progress', {
    class: 'upload__progress',
    max: '1',
    'aria-label': pageWords(field).say('uploading', { name: file.name }),
  });
  const row = element(
    'li',
    { class: 'upload' },
    element('span', { class: 'upload__name' }, file.name),
    ' ',
    element('span', { class: 'upload__size' }, `(${sizeInWords(file.size, pageWords(field).lang)})`),
    bar,
  );
  row.append(removeButton(row, file.name));
  field.querySelector('.uploads')?.append(row);
  const request = new XMLHttpRequest();
  requests.set(row, request);
  const settled = new Promise((resolve) => {
    request.onloadend = resolve;
  }).then(() => {
    pending.delete(settled);
    requests.delete(row);
  });
  pending.add(settled);
  const failed = (message: string) => {
    failures += 1;
    row.remove();
    refuse(field, message);
    changed(field);
  };
  request.upload.onprogress = (event) => {
    if (event.lengthComputable) bar.value = event.loaded / event.total;
  };
  request.onload = () => {
    let answer: { uploadId?: string; errors?: Array<{ message?: string; localizedMessage?: string }> } = {};
    try {
      answer = JSON.parse(request.responseText);
    } catch {
      // not JSON (a proxy's page): told by its status
    }
    if (request.status !== 201 || !answer.uploadId) {
      // the refusal in the page's language (the upload asked for it with ?lang=, API.md §13)
      const error = answer.errors?.[0];
      return failed(error?.localizedMessage ?? error?.message ?? refusal(request.status, file.name, field));
    }
    bar.replaceWith(element('input', { type: 'hidden', name: fieldId, value: answer.uploadId }));
    say(field, pageWords(field).say('fileUploaded', { name: file.name }));
    changed(field);
  };
  request.onerror = () => failed(refusal(0, file.name, field));
  const lang = encodeURIComponent(pageWords(form).lang);
  request.open('POST', `/forms/${encodeURIComponent(form.dataset.form ?? '')}/uploads?lang=${lang}`);
  request.setRequestHeader('accept', 'application/json');
  const body = new FormData();
  // the field first: the server knows the field's limits before the file's bytes arrive
  body.append('field', fieldId);
  body.append('file', file, file.name);
  request.send(body);
  say(field, pageWords(field).say('uploading', { name: file.name }));
}

/** A `change` on the page: files chosen in a file field are checked, then uploaded. */
export function filesChosen(event: Event): void {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.type !== 'file' || !input.files?.length) return;
  const field = input.closest<HTMLElement>('.field--file');
  if (!field || !input.form) return;
  const files = [...input.files];
  const limits = limitsOf(input);
  const rows = [...field.querySelectorAll('.upload')];
  // a field of one file takes the new one in place of the one it holds
  const problem =
    tooMany(limits, (limits.maxFiles === 1 ? 0 : rows.length) + files.length, pageWords(input)) ??
    files.map((file) => fileProblem(limits, file, pageWords(input))).find(Boolean);
  if (problem) {
    input.value = '';
    refuse(field, problem);
    return;
  }
  clearMarks(field);
  // the owner's preview sends nothing: the files stay in the input, the page said so
  if (input.dataset.preview !== undefined) return;
  if (limits.maxFiles === 1) for (const row of rows) discard(row);
  for (const file of files) upload(input.form, field, file);
  input.value = '';
  changed(field);
}

/**
 * Before a post: the uploads on their way, awaited (the status line says so). False when one of
 * them failed meanwhile: its message is at its field, and the post waits for the person.
 */
export async function uploadsDone(form: HTMLFormElement): Promise<boolean> {
  if (pending.size === 0) return true;
  const before = failures;
  const waiting = form.querySelector('.upload progress')?.closest<HTMLElement>('.field--file');
  if (waiting) say(waiting, pageWords(form).say('uploadWaiting'));
  while (pending.size > 0) await Promise.all(pending);
  return failures === before;
}

/** A page shown: a file held already is removed by a button at once (the box is for a post without the script). */
export function enhanceFiles(form: HTMLFormElement): void {
  for (const box of form.querySelectorAll<HTMLInputElement>('.upload input[name="_remove"]')) {
    const row = box.closest('.upload');
    const label = box.closest('label');
    if (row && label)
      label.replaceWith(removeButton(row, row.querySelector('.upload__name')?.textContent ?? ''));
  }
}
