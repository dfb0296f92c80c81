import { describe, expect, it } from 'vitest';
import { embedSnippets, escapeHtml } from './share-snippets.js';

describe('the embed snippets', () => {
  const snippets = embedSnippets({
    base: 'https://forms.example.com',
    formId: 'frm_contact-us-7k3xq9m2',
    title: 'Contact us',
  });
  const code = (id: string) => snippets.find((snippet) => snippet.id === id)?.code;

  it('offer an inline frame, a pop-up, a full page and a frame without a script', () => {
    expect(snippets.map((snippet) => snippet.name)).toEqual([
      'Inline frame',
      'Pop-up',
      'Full page',
      'Frame without a script',
    ]);
    expect(code('inline')).toBe(
      '<div data-intake-form="frm_contact-us-7k3xq9m2" data-intake-title="Contact us"></div>\n<script src="https://forms.example.com/embed.js" async></script>',
    );
    expect(code('popup')).toMatch(
      /^<button type="button" data-intake-popup="frm_contact-us-7k3xq9m2" data-intake-title="Contact us">Contact us<\/button>\n<script /,
    );
    expect(code('full-page')).toContain(
      '<iframe src="https://forms.example.com/f/frm_contact-us-7k3xq9m2?embed=1" title="Contact us"></iframe>',
    );
    expect(code('iframe')).toContain('style="width: 100%; height: 600px; border: 0;"');
  });

  it('escape a title that holds quotes or markup', () => {
    expect(escapeHtml(`"Q&A" <b>it's</b>`)).toBe('&#34;Q&#38;A&#34; &#60;b&#62;it&#39;s&#60;/b&#62;');
    const [inline] = embedSnippets({ base: 'https://x.example', formId: 'f', title: '"><script>' });
    expect(inline?.code).not.toContain('<script>"');
    expect(inline?.code).toContain('data-intake-title="&#34;&#62;&#60;script&#62;"');
  });
});
