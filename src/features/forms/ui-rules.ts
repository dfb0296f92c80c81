import type { FieldError } from '../../platform/problem.js';
import type { FormDefinition } from './schemas.js';

/**
 * The rules of a form's `ui` that its shape (schemas.ts) cannot say: the accent colour's
 * contrast (API.md §11.1) and the origins that may embed the page (§11.2). Each returns the
 * problems it finds, which definition.ts reports with the rest.
 */

const error = (field: string, code: string, message: string): FieldError => ({ field, code, message });

/**
 * The backgrounds the hosted page shows the accent colour on (web/client/hosted/hosted.css,
 * the form's card): white in the light theme, black in the dark one. Pure black rather than a
 * near-black: for `theme: auto` the colour must reach 4.5:1 against both, and only the widest
 * pair leaves room for any colour at all (relative luminance ≈ 0.175–0.183, mid-tones such as
 * #0a7ea4 or #767676); a fixed theme takes any colour that contrasts with its one background.
 */
export const THEME_BACKGROUNDS = { light: '#ffffff', dark: '#000000' } as const;
const MIN_ACCENT_CONTRAST = 4.5;
const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** WCAG 2 relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `ui.accentColor` (API.md §11.1): at least 4.5:1 against the background of each scheme its theme may show. */
export function checkAccentColor(ui: FormDefinition['ui'] | undefined): FieldError[] {
  const accent = (ui as Record<string, unknown> | undefined)?.accentColor;
  // a colour that is not #rrggbb is the shape's problem
  if (typeof accent !== 'string' || !HEX_COLOUR.test(accent)) return [];
  const schemes: Array<keyof typeof THEME_BACKGROUNDS> =
    ui?.theme === 'light' ? ['light'] : ui?.theme === 'dark' ? ['dark'] : ['light', 'dark'];
  const failing = schemes
    .map((scheme) => ({ scheme, ratio: contrastRatio(accent, THEME_BACKGROUNDS[scheme]) }))
    .filter(({ ratio }) => ratio < MIN_ACCENT_CONTRAST);
  if (failing.length === 0) return [];
  const against = failing
    .map(
      ({ scheme, ratio }) =>
        `${ratio.toFixed(2)}:1 against the ${scheme} background ${THEME_BACKGROUNDS[scheme]}`,
    )
    .join(' and ');
  const advice =
    schemes.length === 2
      ? '; with theme auto it must contrast with both (a mid-tone such as #0a7ea4 or #767676), or set ui.theme to light or dark'
      : '';
  return [
    error(
      'ui.accentColor',
      'contrast',
      `has a contrast of ${against}; at least ${MIN_ACCENT_CONTRAST}:1 is needed${advice}`,
    ),
  ];
}

/** At most this many origins may embed a form (schemas.ts says it too). */
export const MAX_EMBED_ORIGINS = 20;
/** scheme://host[:port] as URL's `origin` writes it: lower case, no default port, no path. */
const ORIGIN = /^https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/;

/**
 * `ui.embedOrigins` (API.md §11.2): each entry an http(s) origin written as browsers compare
 * them (`https://example.com`, `http://localhost:8080`), for the embedded page's
 * `frame-ancestors`: no path, query, credentials or wildcard, no default port. One problem per
 * bad entry, naming what to write instead when there is an origin in it.
 */
export function checkEmbedOrigins(ui: FormDefinition['ui'] | undefined): FieldError[] {
  const origins = (ui as Record<string, unknown> | undefined)?.embedOrigins;
  if (!Array.isArray(origins)) return [];
  const errors: FieldError[] = [];
  for (const [i, origin] of origins.entries()) {
    // not a string, too long, too many: the shape's problem
    if (typeof origin !== 'string' || origin === '' || origin.length > 300) continue;
    let written: string | undefined;
    try {
      const url = new URL(origin);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && ORIGIN.test(url.origin))
        written = url.origin;
    } catch {
      // not a URL at all
    }
    if (written === origin) continue;
    const hint = written && written !== origin ? `; write it as "${written}"` : '';
    errors.push(
      error(
        `ui.embedOrigins[${i}]`,
        'invalid_origin',
        `must be an origin such as "https://example.com" (http or https, host and optional port, no path, no wildcard)${hint}`,
      ),
    );
  }
  return errors;
}
