/**
 * The embed snippets the Share panel shows (API.md §11.2): pure, so what an owner pastes is
 * tested as text. The form's title goes into attributes and a document title, escaped.
 */

export interface Snippet {
  id: 'inline' | 'popup' | 'full-page' | 'iframe';
  name: string;
  about: string;
  code: string;
}

/** Text safe inside an HTML attribute or element (a title may hold quotes and angle brackets). */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function embedSnippets({
  base,
  formId,
  title,
}: {
  base: string;
  formId: string;
  title: string;
}): Snippet[] {
  const id = escapeHtml(formId);
  const name = escapeHtml(title);
  const frame = `${base}/f/${encodeURIComponent(formId)}?embed=1`;
  const script = `<script src="${base}/embed.js" async></script>`;
  return [
    {
      id: 'inline',
      name: 'Inline frame',
      about: 'The form inside your page, as tall as its content (no scrollbar of its own).',
      code: `<div data-intake-form="${id}" data-intake-title="${name}"></div>\n${script}`,
    },
    {
      id: 'popup',
      name: 'Pop-up',
      about: 'A button of your page opens the form over it; Escape or the close button closes it.',
      code: `<button type="button" data-intake-popup="${id}" data-intake-title="${name}">${name}</button>\n${script}`,
    },
    {
      id: 'full-page',
      name: 'Full page',
      about: 'A whole page of your site that is the form, edge to edge.',
      code: [
        '<!doctype html>',
        '<html lang="en">',
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        `<title>${name}</title>`,
        '<style>html, body, iframe { margin: 0; border: 0; width: 100%; height: 100%; display: block; }</style>',
        `<iframe src="${frame}" title="${name}"></iframe>`,
        '</html>',
      ].join('\n'),
    },
    {
      id: 'iframe',
      name: 'Frame without a script',
      about:
        'For sites that allow no scripts: a frame of a fixed height (600 pixels here; change it to fit).',
      code: `<iframe src="${frame}" title="${name}" style="width: 100%; height: 600px; border: 0;"></iframe>`,
    },
  ];
}
