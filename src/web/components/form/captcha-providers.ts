/**
 * The CAPTCHA providers a form may configure (spamProtection.captcha.provider), as the hosted
 * page meets them: the server renders the widget and allows the origins (captcha.tsx,
 * hosted/document.tsx); the widget names its provider's global for the page's script, which
 * renders a widget on a page it swapped in.
 */
export interface ProviderWidget {
  /** The provider's script, loaded async by the page. */
  script: string;
  /** The class its script renders a widget into (implicit rendering, on load). */
  className: string;
  /** What the page's Content-Security-Policy must allow: scripts, frames, calls and styles from these. */
  origins: readonly string[];
  /** The global its script defines, with `render(element, {sitekey})` for a widget added later (a page swapped in by the page's script): the widget's `data-api`. */
  global: 'turnstile' | 'hcaptcha' | 'grecaptcha';
}

export const CAPTCHA_PROVIDERS: Readonly<Record<string, ProviderWidget>> = {
  turnstile: {
    script: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    className: 'cf-turnstile',
    origins: ['https://challenges.cloudflare.com'],
    global: 'turnstile',
  },
  hcaptcha: {
    script: 'https://js.hcaptcha.com/1/api.js',
    className: 'h-captcha',
    origins: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    global: 'hcaptcha',
  },
  recaptcha: {
    script: 'https://www.google.com/recaptcha/api.js',
    className: 'g-recaptcha',
    origins: ['https://www.google.com', 'https://www.gstatic.com'],
    global: 'grecaptcha',
  },
};
