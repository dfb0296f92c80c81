import type { ComponentChildren } from 'preact';
import type { StoredForm } from '../../features/forms/repo.js';
import type { PageForm } from '../../shared/form.js';
import type { Words } from '../../shared/i18n/words.js';
import { ENTRIES } from '../assets.js';
import { CAPTCHA_PROVIDERS } from '../components/form/captcha-providers.js';
import { ThankYou } from '../components/form/form-page.js';
import { hashSource, isCspSource, type PagePolicy } from '../csp.js';
import { Layout } from '../layout.js';
import type { PageContext } from '../pages.js';

/**
 * The document around a hosted form's page (routes.tsx renders the form inside it): its theme,
 * language and direction, the accent colour, its Content-Security-Policy, and, embedded
 * (`?embed=1`, API.md §11.2), the page without its chrome, framable by `ui.embedOrigins`, with
 * the one script it loads then (client/hosted/frame.ts: its height and events to the parent).
 */

const ACCENT = /^#[0-9a-fA-F]{6}$/;
const LANGUAGE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;
/** Languages written right to left (primary subtags), and the scripts that are. */
const RTL_LANGUAGES = new Set([
  'ar',
  'arc',
  'ckb',
  'dv',
  'fa',
  'he',
  'iw',
  'ks',
  'ps',
  'sd',
  'ug',
  'ur',
  'yi',
]);
const RTL_SCRIPTS = new Set(['arab', 'hebr', 'thaa', 'syrc', 'nkoo', 'adlm', 'rohg', 'mand', 'samr']);

/** `lang` and `dir` of a form's page from `ui.language` (BCP 47); English, left to right, without one. */
export function languageOf(language: unknown): { lang: string; dir: 'ltr' | 'rtl' } {
  if (typeof language !== 'string' || !LANGUAGE.test(language)) return { lang: 'en', dir: 'ltr' };
  const [primary = '', ...rest] = language.toLowerCase().split('-');
  // the script a language is written in when the tag does not say (CLDR's likely subtags)
  let script = rest.find((part) => part.length === 4);
  try {
    script ??= new Intl.Locale(language).maximize().script?.toLowerCase();
  } catch {
    // a tag ICU does not take: the list below decides
  }
  const rtl = script ? RTL_SCRIPTS.has(script) : RTL_LANGUAGES.has(primary);
  return { lang: language, dir: rtl ? 'rtl' : 'ltr' };
}

/**
 * Who may frame an embedded page: the origins of `ui.embedOrigins` (definition.ts checked them),
 * or, without the member, any site (`*`: in CSP Level 3 it matches every http(s) ancestor, the
 * only kind a site is; `data:`, `blob:` and `file:` documents stay refused). An empty list lets
 * no one: undefined here, which csp.ts turns into `'none'` and X-Frame-Options DENY.
 */
export function embedAncestors(form: StoredForm): string[] | undefined {
  const origins = (form.definition.ui as Record<string, unknown>).embedOrigins;
  if (!Array.isArray(origins)) return ['*'];
  const listed = origins.filter(
    (origin): origin is string => typeof origin === 'string' && isCspSource(origin),
  );
  return listed.length > 0 ? listed : undefined;
}

/** The page's one inline style: the form's accent colour (`#rrggbb`), which the policy allows by its hash. */
const accentStyle = (accent: string): string => `:root{--custom-accent:${accent}}`;

/**
 * The page's policy: the hash of its one inline `<style>` (the accent colour), the origin of
 * `ui.redirectUrl` among the form actions (the browser follows the post's 303 there), a
 * configured CAPTCHA provider's origins (its script, its widget's frame, its calls and styles:
 * the only other origins a hosted page may reach, API.md §11.1), and, embedded, the frame
 * ancestors (for the owner's preview, Intake itself); outside `?embed=1` no one may frame it.
 */
export function policyFor(form: StoredForm, embedded: boolean, preview = false): PagePolicy {
  const { accentColor, redirectUrl } = form.definition.ui;
  const policy: PagePolicy = {};
  const captcha = captchaOf(form);
  if (captcha) {
    policy.scriptOrigins = captcha.origins;
    policy.frameOrigins = captcha.origins;
    policy.connectOrigins = captcha.origins;
    policy.styleOrigins = captcha.origins;
  }
  // a hash, not a nonce: the same page is sent many times (routes.tsx's first page, kept)
  if (typeof accentColor === 'string' && ACCENT.test(accentColor))
    policy.styleHashes = [hashSource(accentStyle(accentColor))];
  if (typeof redirectUrl === 'string') {
    try {
      const { origin } = new URL(redirectUrl);
      if (isCspSource(origin)) policy.formActionOrigins = [origin];
    } catch {
      // not a URL: the post leads nowhere else
    }
  }
  // The owner's preview, embedded, is framed only by Intake's own pages (the dashboard's builder):
  // another site, a sibling subdomain included, never frames a page shown with the owner's cookie.
  if (embedded) policy.frameAncestors = preview ? ["'self'"] : embedAncestors(form);
  return policy;
}

/** The form's CAPTCHA provider (components/form/captcha.tsx), when it configures one. */
const captchaOf = (form: StoredForm) => {
  const provider = form.definition.spamProtection?.captcha?.provider;
  return provider ? CAPTCHA_PROVIDERS[provider] : undefined;
};

interface DocumentProps {
  form: PageForm;
  page: PageContext;
  title?: string;
  /** `?embed=1`: no chrome around the card, and the frame script. */
  embedded?: boolean;
  /** The thank-you page's submission, which the frame script tells the parent of. */
  submissionId?: string;
  /** The owner's preview (`?preview=1`): a banner above the form says that nothing is stored. */
  preview?: boolean;
  /** The thank-you page: no CAPTCHA to load. */
  done?: boolean;
  /** Intake's own words in the page's language, which is the document's `lang` (API.md §13). */
  words: Words;
  /** The form's other languages: `hreflang` alternates, and links to them when `languageLinks`. */
  alternates?: readonly Alternate[];
  /** Links to the other languages on the page (a page before any answer: a link starts the form afresh). */
  languageLinks?: boolean;
  children?: ComponentChildren;
}

/** Another language of the page, and its address. */
export interface Alternate {
  lang: string;
  href: string;
}

/** A language's name in itself ("Deutsch", "العربية"), or its tag when ICU has no name for it. */
export function nameOfLanguage(tag: string): string {
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag);
    return name ? name.charAt(0).toLocaleUpperCase(tag) + name.slice(1) : tag;
  } catch {
    return tag;
  }
}

/** Links to the page in its other languages: plain links, no script (API.md §13). */
function LanguageLinks({ words, alternates }: { words: Words; alternates: readonly Alternate[] }) {
  return (
    <nav class="languages" aria-label={words.say('languages')}>
      <ul class="languages__list">
        <li>
          <span class="languages__current" aria-current="page" lang={words.lang} dir="auto">
            {nameOfLanguage(words.lang)}
          </span>
        </li>
        {alternates.map(({ lang, href }) => (
          <li key={lang}>
            <a href={href} hreflang={lang} lang={lang} dir="auto">
              {nameOfLanguage(lang)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The document of a hosted page: its theme, language and direction, the accent colour, and its
 * one first-party script (client/hosted/page.ts, allowed as 'self'), which the page does not
 * need: it steps through the form without page loads, shows and hides fields live, checks
 * answers before they are sent, and, embedded, tells the frame's parent its height and events.
 * A form with a CAPTCHA loads its provider's script too, on its form pages only.
 */
export function FormDocument({
  form,
  page,
  title,
  embedded,
  submissionId,
  preview,
  done,
  words,
  alternates = [],
  languageLinks,
  children,
}: DocumentProps) {
  const { lang, dir } = languageOf(words.lang);
  const accent =
    typeof form.ui.accentColor === 'string' && ACCENT.test(form.ui.accentColor)
      ? form.ui.accentColor
      : undefined;
  const theme = form.ui.theme === 'light' || form.ui.theme === 'dark' ? form.ui.theme : undefined;
  const assets = [page.assets.entry(ENTRIES.hosted), page.assets.entry(ENTRIES.page)];
  const banner = preview && <PreviewBanner words={words} />;
  const links = languageLinks && alternates.length > 0 && (
    <LanguageLinks words={words} alternates={alternates} />
  );
  const captcha = form.spamProtection.captcha && CAPTCHA_PROVIDERS[form.spamProtection.captcha.provider];
  return (
    <Layout
      title={title ?? form.title}
      lang={lang}
      dir={dir}
      theme={theme}
      rootClass={embedded ? 'embedded' : undefined}
      assets={assets}
      icon={page.assets.url(ENTRIES.icon)}
      head={
        <>
          {accent && <style>{accentStyle(accent)}</style>}
          {captcha && !done && <script src={captcha.script} async defer />}
          {alternates.length > 0 &&
            [{ lang, href: '' }, ...alternates].map((alternate) =>
              alternate.href ? (
                <link key={alternate.lang} rel="alternate" hreflang={alternate.lang} href={alternate.href} />
              ) : null,
            )}
        </>
      }
    >
      {embedded ? (
        <main class="hosted" id="main" data-intake-embed={form.id} data-submission-id={submissionId}>
          {banner}
          {links}
          {children}
        </main>
      ) : (
        <main class="hosted" id="main">
          {banner}
          {links}
          {children}
          {page.branding && form.ui.branding !== false && <p class="hosted__footer">{poweredBy(words)}</p>}
        </main>
      )}
    </Layout>
  );
}

export function ThankYouDocument(props: Omit<DocumentProps, 'title' | 'children'>) {
  const { words } = props;
  const title = words.say(props.preview ? 'previewTitle' : 'responseSent', { title: props.form.title });
  return (
    <FormDocument {...props} title={title} done languageLinks={false}>
      <ThankYou form={props.form} preview={props.preview} words={words} />
    </FormDocument>
  );
}

/** "Powered by Intake", its brand in a span of its own (the sentence is the catalogue's, in the page's language). */
function poweredBy(words: Words) {
  const BRAND = '\u0000';
  const [before = '', after = ''] = words.say('poweredBy', { brand: BRAND }).split(BRAND);
  return (
    <>
      {before}
      <span class="hosted__brand">Intake</span>
      {after}
    </>
  );
}

/** Above the owner's preview, on every page of it. */
function PreviewBanner({ words }: { words: Words }) {
  return (
    <p class="preview-banner">
      <strong>{words.say('previewBanner')}</strong>
    </p>
  );
}
