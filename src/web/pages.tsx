import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { problemFor } from '../platform/errors.js';
import { ERROR_CODES, Problem } from '../platform/problem.js';
import { ENTRIES, type WebAssets } from './assets.js';
import { SiteHeader } from './components/site-header.js';
import type { PagePolicy } from './csp.js';
import { Layout } from './layout.js';
import { sendPage } from './render.js';

/** What the page scopes share. */
export interface PageContext {
  assets: WebAssets;
  production: boolean;
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
}

/** The page of a failed page request: what happened, in words, and a reference when it was our fault. */
export function ErrorPage({ heading, message, reference, home, assets }: ErrorPageProps) {
  return (
    <Layout
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
            Reference: <code>{reference}</code>
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
  home?: string,
  /** The policy of an error page of this request, when not the strict default (an embedded form's may be framed). */
  policyOf?: (request: FastifyRequest) => PagePolicy,
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
    return sendPage(reply, <ErrorPage {...describe(problem, request)} home={home} assets={page.assets} />, {
      status: problem.status,
      cache: 'no-store',
      policy: policyOf?.(request),
    });
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

  scope.setErrorHandler((error: FastifyError, request, reply) =>
    send(reply, request, problemFor(error, request, { production: page.production })),
  );
}

/** A problem in words for a person (its `detail` is written for developers). */
function describe(problem: Problem, request: FastifyRequest): Omit<ErrorPageProps, 'assets'> {
  const { status } = problem;
  if (status === 404) {
    return {
      status,
      heading: 'Page not found',
      message: 'There is no page at this address. Check that the link was typed or copied in full.',
    };
  }
  if (status === 405) {
    return {
      status,
      heading: 'Method not allowed',
      message: `This page does not accept ${request.method} requests.`,
    };
  }
  if (status === 503) {
    return {
      status,
      heading: 'Intake is unavailable for a moment',
      message: 'The page could not be shown just now. Please try again in a few seconds.',
    };
  }
  if (status >= 500) {
    return {
      status,
      heading: 'Something went wrong',
      message:
        'The page could not be shown. Please try again; if it keeps happening, quote the reference below.',
      reference: request.id,
    };
  }
  return { status, heading: ERROR_CODES[problem.code], message: problem.detail };
}
