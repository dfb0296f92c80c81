import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { problemFor } from '../platform/errors.js';
import { ERROR_CODES, Problem } from '../platform/problem.js';
import { ENGLISH_WORDS as ENGLISH } from '../shared/i18n/english.js';
import type { Words } from '../shared/i18n/words.js';
import { ENTRIES, type WebAssets } from './assets.js';
import { SiteHeader } from './components/site-header.js';
import type { PagePolicy } from './csp.js';
import { Layout } from './layout.js';
import { sendPage } from './render.js';

/** What the page scopes share. */
export interface PageContext {
  assets: WebAssets;
  production: boolean;
  /** The instance's `BRANDING`: false hides the hosted pages' credit on every form. */
  branding: boolean;
  /** The instance's `FILE_MAX_BYTES`: no file question's page offers more. */
  fileMaxBytes?: number;
}

export interface ErrorPageProps {
  status: number;
  heading: string;
  message: string;
  /** Shown for server errors: the request id, to quote when reporting it. */
  reference?: string;
  /** Where the header's mark leads (the dashboard's pages), if anywhere. */
  home?: string;
  assets: WebAssets;
  /** Intake's words in the page's language (the hosted pages', API.md §13); English when not given. */
  words?: Words;
}

/** The page of a failed page request: what happened, in words, and a reference when it was our fault. */
export function ErrorPage({ heading, message, reference, home, assets, words = ENGLISH }: ErrorPageProps) {
  return (
    <Layout
      lang={words.lang}
      dir={words.dir}
      title={`${heading} – Intake`}
      assets={[assets.entry(ENTRIES.base)]}
      icon={assets.url(ENTRIES.icon)}
    >
      <SiteHeader home={home} />
      <main class="page" id="main">
        <h1>{heading}</h1>
        <p>{message}</p>
        {reference && (
          <p class="muted">
            {words
              .say('reference', { id: '\u0000' })
              .split('\u0000')
              .flatMap((part, i) => (i === 0 ? [part] : [<code key={i}>{reference}</code>, part]))}
          </p>
        )}
      </main>
    </Layout>
  );
}

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Makes a scope of pages (registered with a prefix: /app, /f, /assets) answer as a website
 * does: a path under the prefix that matches nothing is a `text/html` 404 page (405 for a
 * known path with another method), and an error thrown there is a page with the problem's
 * status; the API elsewhere keeps its problem documents (platform/errors.ts). Call it before
 * the scope's routes are added.
 */
export function installPageErrors(
  scope: FastifyInstance,
  page: PageContext,
  {
    home,
    policyOf,
    wordsOf = () => ENGLISH,
    wantsProblems = () => false,
  }: {
    /** Where the error page's header links to. */
    home?: string;
    /** The policy of an error page of this request, when not the strict default (an embedded form's may be framed). */
    policyOf?: (request: FastifyRequest) => PagePolicy;
    /** The language of an error page of this request (the hosted pages'); English when not given. */
    wordsOf?: (request: FastifyRequest) => Words;
    /** Requests whose errors are the API's problem documents, not pages (a form post that asks for JSON). */
    wantsProblems?: (request: FastifyRequest) => boolean;
  } = {},
): void {
  const routes = FindMyWay({ ignoreTrailingSlash: false });
  scope.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (!METHODS.includes(method as HTTPMethod)) continue;
      try {
        routes.on(method as HTTPMethod, route.url, () => {});
      } catch {
        // the same path twice (/app and /app/ from one route): known already
      }
    }
  });

  const send = (reply: FastifyReply, request: FastifyRequest, problem: Problem) => {
    for (const [name, value] of Object.entries(problem.options.headers ?? {})) reply.header(name, value);
    const words = wordsOf(request);
    return sendPage(
      reply,
      <ErrorPage {...describe(problem, request, words)} home={home} assets={page.assets} words={words} />,
      {
        status: problem.status,
        cache: 'no-store',
        policy: policyOf?.(request),
      },
    );
  };

  scope.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((method) => routes.find(method, path) !== null);
    // A route of this method that found nothing (an unknown file under /assets/*) is a 404.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (allowed.length > 0 && !allowed.includes(method as HTTPMethod)) {
      reply.header('allow', [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', '));
      return send(
        reply,
        request,
        new Problem(405, 'method_not_allowed', `${request.method} is not allowed here`),
      );
    }
    return send(reply, request, new Problem(404, 'not_found', `No page at ${path}`));
  });

  scope.setErrorHandler((error: FastifyError, request, reply) => {
    // the platform's handler answers it (platform/errors.ts)
    if (wantsProblems(request)) throw error;
    return send(reply, request, problemFor(error, request, { production: page.production }));
  });
}

/** A problem in words for a person (its `detail` is written for developers). */
function describe(problem: Problem, request: FastifyRequest, words: Words): Omit<ErrorPageProps, 'assets'> {
  const { status } = problem;
  if (status === 404) {
    return { status, heading: words.say('notFoundTitle'), message: words.say('notFoundText') };
  }
  if (status === 405) {
    return {
      status,
      heading: words.say('methodTitle'),
      message: words.say('methodText', { method: request.method }),
    };
  }
  if (status === 503) {
    return { status, heading: words.say('unavailableTitle'), message: words.say('unavailableText') };
  }
  if (status >= 500) {
    return {
      status,
      heading: words.say('brokenTitle'),
      message: words.say('brokenText'),
      reference: request.id,
    };
  }
  // a post refused as spam: its detail is written for the person, in the page's language (hosted/messages.ts)
  if (problem.code === 'spam_detected') {
    return { status, heading: words.say('refusedTitle'), message: problem.detail };
  }
  return { status, heading: ERROR_CODES[problem.code], message: problem.detail };
}
