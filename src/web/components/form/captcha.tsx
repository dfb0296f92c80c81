import { CAPTCHA_PROVIDERS } from './captcha-providers.js';

/**
 * A form's CAPTCHA (spamProtection.captcha, API.md §5.4) on its hosted page: the provider's
 * widget, which puts its token in the form under the provider's own name
 * (`cf-turnstile-response`, `h-captcha-response`, `g-recaptcha-response`: the names a form post
 * is read with, submissions/form-posts.ts). Only the page of a form that configures one loads
 * the provider's script and allows its origins (hosted/document.tsx, API.md §11.1).
 *
 * A widget needs JavaScript: without it the form cannot pass its spam check, and says so.
 * reCAPTCHA is its checkbox (v2); a score-only key (v3, `minScore`) has no widget to show.
 */
export function CaptchaWidget({ provider, siteKey }: { provider: string; siteKey: string }) {
  const known = CAPTCHA_PROVIDERS[provider];
  if (!known) return null;
  return (
    <div class="captcha">
      {/* data-api: the global whose render() the page's script calls for a widget swapped in */}
      <div class={known.className} data-sitekey={siteKey} data-captcha={provider} data-api={known.global} />
      <noscript>
        <p class="captcha__note">
          This form checks that you are not a robot with a test that needs JavaScript. Turn JavaScript on to
          send it.
        </p>
      </noscript>
    </div>
  );
}
