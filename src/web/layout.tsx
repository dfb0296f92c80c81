import type { ComponentChildren } from 'preact';
import type { EntryFiles } from './manifest.js';

export interface LayoutProps {
  /** The document's `<title>`. */
  title: string;
  /** BCP 47 language of the page, and its direction. */
  lang?: string;
  dir?: 'ltr' | 'rtl';
  /** The built files the page loads (`WebAssets.entry`), in order: stylesheets first, then scripts. */
  assets: readonly EntryFiles[];
  /** The favicon's URL, when there is a build. */
  icon?: string;
  /** The response's CSP nonce (csp.ts), given to every script tag. */
  nonce?: string;
  /** A fixed colour scheme (`data-theme` on <html>); both, following the system, when omitted. */
  theme?: 'light' | 'dark';
  /** A class on <html> (the hosted page's `embedded`, which drops its chrome). */
  rootClass?: string;
  /** More of the head, after the stylesheets (a page's `<style nonce>`). */
  head?: ComponentChildren;
  children?: ComponentChildren;
}

/**
 * The HTML document of every server-rendered page. Everything in it comes from props and is
 * escaped by preact-render-to-string: no markup is ever put together from strings.
 */
export function Layout({
  title,
  lang = 'en',
  dir,
  assets,
  icon,
  nonce,
  theme,
  rootClass,
  head,
  children,
}: LayoutProps) {
  const styles = unique(assets.flatMap((files) => files.styles));
  const preloads = unique(assets.flatMap((files) => files.preloads));
  const scripts = unique(assets.flatMap((files) => (files.script ? [files.script] : [])));
  return (
    <html lang={lang} dir={dir} data-theme={theme} class={rootClass}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme ?? 'light dark'} />
        <title>{title}</title>
        {icon && <link rel="icon" type="image/svg+xml" href={icon} />}
        {styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {head}
        {preloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
        {scripts.map((src) => (
          <script key={src} type="module" src={src} nonce={nonce} />
        ))}
      </head>
      <body>{children}</body>
    </html>
  );
}

const unique = (values: string[]): string[] => [...new Set(values)];
