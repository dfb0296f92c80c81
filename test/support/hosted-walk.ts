import { expect } from 'vitest';
import type { Response, TestApp } from './app.js';

/**
 * A visitor's walk through a hosted form's pages (API.md §11.1) over HTTP, as a browser without
 * JavaScript sends them: the page got, then each page posted with every hidden input it carries
 * (the session, the question, the answers so far), the answers given on it and the button pressed.
 */

/** Every hidden input of a page, by name, as its form post sends them. */
export function hiddenInputs(page: Response): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [input] of page.text.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input)?.[1];
    const value = /value="([^"]*)"/.exec(input)?.[1] ?? '';
    if (name) fields[name] = [...(fields[name] ?? []), value];
  }
  return fields;
}

export interface HostedWalk {
  /** The page shown last. */
  readonly page: Response;
  /** The question that page shows (one-by-one), from its `_question`. */
  readonly question: string | undefined;
  /** The session the page carries (`_session`). */
  readonly session: string | undefined;
  /** Posts the page shown last with these answers and this button; resolves once answered. */
  send(answers: Record<string, string>, action?: 'next' | 'back' | 'submit' | 'save'): Promise<HostedWalk>;
}

/** Opens `/f/{formId}{query}` (a view) and hands back the walk from there. */
export async function walkHosted(
  t: Pick<TestApp, 'request'>,
  formId: string,
  { cookie, query = '' }: { cookie?: string; query?: string } = {},
): Promise<HostedWalk> {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  let page = await t.request({ method: 'GET', url: `/f/${formId}${query}`, headers });
  expect(page.status, page.text).toBe(200);
  const walk: HostedWalk = {
    get page() {
      return page;
    },
    get question() {
      return hiddenInputs(page)._question?.[0];
    },
    get session() {
      return hiddenInputs(page)._session?.[0];
    },
    async send(answers, action = 'next') {
      const body = new URLSearchParams();
      for (const [name, values] of Object.entries({ ...hiddenInputs(page), ...answers, _action: action }))
        for (const value of [values].flat()) body.append(name, value);
      page = await t.request({
        method: 'POST',
        url: `/f/${formId}${query}`,
        body: body.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
      expect(page.status, page.text).toBeLessThan(500);
      return walk;
    },
  };
  return walk;
}
