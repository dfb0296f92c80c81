import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import type { PageForm } from '../../../shared/form.js';
import { FormPage } from './form-page.js';

/** The classic page's progress bar (`ui.progress: "bar"`, API.md §11.1), rendered on its own. */

const FORM: PageForm = {
  id: 'f1',
  title: 'Book a demo',
  fields: [
    { id: 'name', type: 'text', label: 'Your name', required: true },
    { id: 'topic', type: 'select', label: 'Topic', options: ['sales', 'support'] },
    { id: 'order', type: 'text', label: 'Order number' },
    { id: 'agree', type: 'checkbox', label: 'I agree' },
    { id: 'source', type: 'hidden', label: 'Source' },
  ],
  ui: { layout: 'classic', progress: 'bar' },
  logic: { rules: [{ when: { field: 'topic', op: 'equals', value: 'support' }, show: ['order'] }] },
  spamProtection: { honeypot: null, captcha: null },
};

const page = (form: PageForm, answers: Record<string, unknown> = {}) =>
  renderToString(h(FormPage, { form, action: '/f/f1', answers }));
const bar = (html: string) => /<progress[^>]*>[^<]*<\/progress>/.exec(html)?.[0];

describe('a classic page with ui.progress "bar"', () => {
  it('is a progressbar of the questions shown, none answered at first (hidden fields and hidden questions not counted)', () => {
    expect(bar(page(FORM))).toBe(
      '<progress class="progress-bar progress-bar--answered" id="progress" value="0" max="3" aria-label="0 of 3 questions answered">0 of 3 questions answered</progress>',
    );
  });

  it('counts the answers a refused post kept: blank ones and an unticked box are no answer', () => {
    const html = page(FORM, { name: '  ', topic: 'support', order: 'A-1', agree: false, source: 'x' });
    expect(bar(html)).toContain('value="2" max="4" aria-label="2 of 4 questions answered"');
  });

  it('is left out for any other ui.progress', () => {
    for (const progress of ['steps', 'none', undefined] as const)
      expect(bar(page({ ...FORM, ui: { layout: 'classic', progress } }))).toBeUndefined();
  });
});
