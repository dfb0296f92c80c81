import { Window } from 'happy-dom';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { afterAll, describe, expect, it } from 'vitest';
import type { FormField } from '../../../shared/form.js';
import { CaptchaWidget } from './captcha.js';
import { ErrorSummary, Honeypot, ThankYou } from './form-page.js';

/**
 * The form page's other parts rendered to a string, as the server sends them, and read back as
 * a DOM (happy-dom): the error summary, the honeypot, the thank-you page, the CAPTCHA widget.
 */

const window = new Window();
afterAll(() => window.happyDOM.close());

/** Markup the server sent, as a DOM. */
function rendered(html: string) {
  const host = window.document.createElement('div');
  host.innerHTML = html;
  return host;
}

const FIELDS: FormField[] = [
  { id: 'name', type: 'text', label: 'Your name', required: true },
  { id: 'source', type: 'hidden', label: 'Source' },
];

describe('the error summary', () => {
  it('is a section named by its heading, focused as the page loads, linking each visible field’s control', () => {
    const host = rendered(
      renderToString(
        h(ErrorSummary, {
          errors: [
            { field: 'name', code: 'required', message: 'is required' },
            { field: 'source', code: 'too_long', message: 'is too long' },
          ],
          fields: FIELDS,
        }),
      ),
    );
    const summary = host.querySelector('section.error-summary');
    expect(summary?.getAttribute('aria-labelledby')).toBe('summary-title');
    expect(host.querySelector('#summary-title')?.textContent).toBe('There is a problem');
    expect(summary?.getAttribute('tabindex')).toBe('-1');
    expect(summary?.hasAttribute('autofocus')).toBe(true);
    const items = [...host.querySelectorAll('li')];
    expect(items).toHaveLength(2);
    // a visible field's error links to its control and names it; a hidden field has no control to go to
    expect(items[0]?.querySelector('a')?.getAttribute('href')).toBe('#field-name');
    expect(items[0]?.textContent).toContain('Your name');
    expect(items[1]?.querySelector('a')).toBeNull();
  });

  it('goes without autofocus when asked (in a frame of another origin, the script focuses it)', () => {
    const host = rendered(
      renderToString(
        h(ErrorSummary, {
          errors: [{ field: 'name', code: 'required', message: 'is required' }],
          fields: FIELDS,
          autofocus: false,
        }),
      ),
    );
    expect(host.querySelector('section')?.hasAttribute('autofocus')).toBe(false);
  });
});

describe('the honeypot', () => {
  it('is an input under the form’s name that nobody sees, hears or reaches', () => {
    const host = rendered(renderToString(h(Honeypot, { name: 'website_url' })));
    const box = host.querySelector('.hp');
    expect(box?.getAttribute('aria-hidden')).toBe('true');
    expect(box?.hasAttribute('inert')).toBe(true);
    const input = host.querySelector('input');
    expect(input?.getAttribute('name')).toBe('website_url');
    expect(input?.getAttribute('tabindex')).toBe('-1');
    expect(input?.getAttribute('autocomplete')).toBe('off');
    expect(input?.getAttribute('value')).toBe('');
  });
});

describe('the thank-you page', () => {
  it('says "Thank you" by default, or the form’s own message, as its heading', () => {
    const plain = rendered(renderToString(h(ThankYou, { form: { title: 'Feedback', ui: {} } })));
    expect(plain.querySelector('h1')?.textContent).toBe('Thank you');
    expect(plain.textContent).toContain('Your response to “Feedback” has been sent.');
    const own = rendered(
      renderToString(h(ThankYou, { form: { title: 'Feedback', ui: { successMessage: '  Got it!  ' } } })),
    );
    expect(own.querySelector('h1')?.textContent).toBe('Got it!');
  });

  it('in the owner’s preview, says nothing was stored and where respondents would go instead', () => {
    const host = rendered(
      renderToString(
        h(ThankYou, {
          form: { title: 'Feedback', ui: { redirectUrl: 'https://example.com/thanks' } },
          preview: true,
        }),
      ),
    );
    expect(host.textContent).toContain('was not stored');
    expect(host.textContent).toContain('https://example.com/thanks');
    // the check mark is decoration
    expect(host.querySelector('.thanks__mark')?.getAttribute('aria-hidden')).toBe('true');
  });
});

describe('the CAPTCHA widget', () => {
  it('is the provider’s element with the site key, and says why without JavaScript', () => {
    const host = rendered(renderToString(h(CaptchaWidget, { provider: 'turnstile', siteKey: '0x4AAA' })));
    const widget = host.querySelector('[data-captcha="turnstile"]');
    expect(widget?.classList.contains('cf-turnstile')).toBe(true);
    expect(widget?.getAttribute('data-sitekey')).toBe('0x4AAA');
    expect(host.querySelector('noscript')?.textContent).toMatch(/JavaScript/);
  });

  it('is nothing for a provider it does not know', () => {
    expect(rendered(renderToString(h(CaptchaWidget, { provider: 'unknown', siteKey: 'x' }))).innerHTML).toBe(
      '',
    );
  });
});
