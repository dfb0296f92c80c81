import { Window } from 'happy-dom';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { afterAll, describe, expect, it } from 'vitest';
import type { FormField, PageForm } from '../../../shared/form.js';
import type { PageUploads } from './controls.js';
import { Field, type FieldProps } from './fields.js';
import { FormPage, QuestionPage } from './form-page.js';

/**
 * A file field (API.md §12) rendered as the server sends it, read back as a DOM (happy-dom):
 * the native file input with the field's limits as attributes and in words, the files it holds
 * already (posted again, each with a box that removes it), and the pages around it posting as
 * multipart/form-data, the others urlencoded as before.
 */

const window = new Window();
afterAll(() => window.happyDOM.close());

const host = (html: string) => {
  const element = window.document.createElement('div');
  element.innerHTML = html;
  return element;
};

const CV: FormField = {
  id: 'cv',
  type: 'file',
  label: 'Your CV',
  required: true,
  help: 'A recent one',
  maxFiles: 3,
  maxFileSize: 2 * 1024 * 1024,
  accept: ['.pdf', 'image/*'],
};

const UPLOADS = [
  { uploadId: 'upl_1', name: 'cv.pdf', size: 123_456, type: 'application/pdf' },
  { uploadId: 'upl_2', name: 'photo.png', size: 900, type: 'image/png' },
];

const field = (props: Partial<FieldProps> & { field: FormField }) => host(renderToString(h(Field, props)));

/** The accessible name a `<label for>` gives a control, without the aria-hidden required mark. */
function labelOf(element: ReturnType<typeof host>, id: string): string | undefined {
  const label = element.querySelector(`label[for="${id}"]`)?.cloneNode(true);
  if (!label || !('querySelectorAll' in label)) return undefined;
  for (const hidden of label.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return label.textContent?.trim();
}

describe('a file field', () => {
  it('is a native file input named by its label, with its limits as attributes and in words', () => {
    const page = field({ field: CV });
    const input = page.querySelector('#field-cv');
    expect(input?.getAttribute('type')).toBe('file');
    expect(input?.getAttribute('name')).toBe('cv');
    expect(labelOf(page, 'field-cv')).toBe('Your CV');
    expect(input?.getAttribute('accept')).toBe('.pdf,image/*');
    expect(input?.hasAttribute('multiple')).toBe(true);
    expect(input?.hasAttribute('required')).toBe(true);
    expect(input?.hasAttribute('data-required')).toBe(true);
    expect(page.querySelector('#limits-cv')?.textContent).toBe('Up to 3 files, 2 MB each; PDF or images');
    expect(input?.getAttribute('aria-describedby')).toBe('help-cv limits-cv');
    // what the page's script checks chosen files against
    expect(input?.getAttribute('data-max-files')).toBe('3');
    expect(input?.getAttribute('data-max-size')).toBe(String(2 * 1024 * 1024));
    expect(input?.getAttribute('data-accept-text')).toBe('PDF or images');
    expect(input?.hasAttribute('data-preview')).toBe(false);
    // a status line for the script to tell each change, and an empty list
    expect(page.querySelector('#status-cv')?.getAttribute('role')).toBe('status');
    expect(page.querySelectorAll('#uploads-cv li')).toHaveLength(0);
  });

  it('takes one file of any type with the defaults: no multiple, no accept', () => {
    const page = field({ field: { id: 'doc', type: 'file', label: 'A document' } });
    const input = page.querySelector('#field-doc');
    expect(input?.hasAttribute('multiple')).toBe(false);
    expect(input?.hasAttribute('accept')).toBe(false);
    expect(input?.hasAttribute('required')).toBe(false);
    expect(input?.hasAttribute('data-required')).toBe(false);
    expect(page.querySelector('#limits-doc')?.textContent).toBe('One file, up to 10 MB');
  });

  it('lists the files it holds: each posted again under the field, with a box labelled "Remove {name}"', () => {
    const page = field({ field: CV, uploads: UPLOADS });
    const rows = [...page.querySelectorAll('#uploads-cv li')];
    expect(rows.map((row) => row.querySelector('.upload__name')?.textContent)).toEqual([
      'cv.pdf',
      'photo.png',
    ]);
    expect(rows.map((row) => row.querySelector('.upload__size')?.textContent)).toEqual([
      '(121 kB)',
      '(900 bytes)',
    ]);
    const kept = [...page.querySelectorAll('input[type="hidden"]')];
    expect(kept.map((input) => [input.getAttribute('name'), input.getAttribute('value')])).toEqual([
      ['cv', 'upl_1'],
      ['cv', 'upl_2'],
    ]);
    const boxes = [...page.querySelectorAll('input[type="checkbox"]')];
    expect(boxes.map((box) => [box.getAttribute('name'), box.getAttribute('value')])).toEqual([
      ['_remove', 'upl_1'],
      ['_remove', 'upl_2'],
    ]);
    expect(boxes.map((box) => box.closest('label')?.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'Remove cv.pdf',
      'Remove photo.png',
    ]);
    // a file held answers the question: the input is no longer required (the script makes it so
    // again when the last file is removed)
    const input = page.querySelector('#field-cv');
    expect(input?.hasAttribute('required')).toBe(false);
    expect(input?.hasAttribute('data-required')).toBe(true);
  });

  it('shows its error like the other fields: under the label and limits, tied to the input', () => {
    const page = field({ field: CV, error: 'Choose a file to upload.' });
    const input = page.querySelector('#field-cv');
    expect(input?.getAttribute('aria-invalid')).toBe('true');
    expect(input?.getAttribute('aria-describedby')).toBe('help-cv limits-cv error-cv');
    expect(page.querySelector('#error-cv')?.textContent).toBe('Error: Choose a file to upload.');
    expect(page.querySelector('.field--file')?.classList.contains('field--invalid')).toBe(true);
  });

  it('says in the preview that files are not uploaded there, and tells the script', () => {
    const page = field({ field: CV, preview: true });
    const input = page.querySelector('#field-cv');
    expect(page.querySelector('#preview-cv')?.textContent).toBe('Files are not uploaded in the preview');
    expect(input?.getAttribute('aria-describedby')).toBe('help-cv limits-cv preview-cv');
    expect(input?.hasAttribute('data-preview')).toBe(true);
  });
});

const FORM: PageForm = {
  id: 'jobs',
  title: 'Apply',
  fields: [
    { id: 'name', type: 'text', label: 'Your name' },
    CV,
    { id: 'letter', type: 'file', label: 'A letter' },
  ],
  ui: { layout: 'one-by-one' },
  logic: { rules: [] },
  spamProtection: { honeypot: null, captcha: null },
};

describe('the pages of a form with a file field', () => {
  const uploads: PageUploads = {
    cv: UPLOADS,
    letter: [{ uploadId: 'upl_9', name: 'l.pdf', size: 10, type: '' }],
  };

  it('a classic page posts as multipart/form-data, its file fields listing what they hold', () => {
    const page = host(renderToString(h(FormPage, { form: FORM, action: '/f/jobs', uploads })));
    expect(page.querySelector('form')?.getAttribute('enctype')).toBe('multipart/form-data');
    expect(page.querySelectorAll('#uploads-cv li')).toHaveLength(2);
    expect(page.querySelectorAll('#uploads-letter li')).toHaveLength(1);
  });

  it('a classic page without one stays urlencoded (no enctype)', () => {
    const form = { ...FORM, fields: [FORM.fields[0] as FormField] };
    const page = host(renderToString(h(FormPage, { form, action: '/f/jobs' })));
    expect(page.querySelector('form')?.hasAttribute('enctype')).toBe(false);
  });

  it('a question page posts multipart only for a file question, and carries the other fields’ uploads', () => {
    const question = (field: FormField) =>
      host(
        renderToString(
          h(QuestionPage, {
            form: FORM,
            action: '/f/jobs',
            field,
            position: { n: 1, m: 3 },
            first: true,
            last: false,
            // a file field's answer is what it holds: never posted twice from `answers`
            answers: { name: 'Ada', cv: ['upl_1'] },
            uploads,
          }),
        ),
      );
    const onName = question(FORM.fields[0] as FormField);
    expect(onName.querySelector('form')?.hasAttribute('enctype')).toBe(false);
    const carried = [...onName.querySelectorAll('input[type="hidden"]')]
      .map((input) => `${input.getAttribute('name')}=${input.getAttribute('value')}`)
      .filter((entry) => !entry.startsWith('_'));
    expect(carried).toEqual(['cv=upl_1', 'cv=upl_2', 'letter=upl_9']);

    const onCv = question(CV);
    expect(onCv.querySelector('form')?.getAttribute('enctype')).toBe('multipart/form-data');
    expect(onCv.querySelectorAll('#uploads-cv li')).toHaveLength(2);
    // its own uploads in its list, the other file field's carried
    expect(onCv.querySelector('input[type="hidden"][name="letter"]')?.getAttribute('value')).toBe('upl_9');
    expect(onCv.querySelectorAll('input[type="hidden"][name="cv"]')).toHaveLength(2);
  });
});
