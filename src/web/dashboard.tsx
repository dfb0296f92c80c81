import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { surelySignedOut } from '../platform/auth.js';
import { Problem } from '../platform/problem.js';
import { ENTRIES } from './assets.js';
import { Layout } from './layout.js';
import { installPageErrors, type PageContext } from './pages.js';
import { sendPage } from './render.js';

/**
 * `GET /app` and every path below it (API.md §11.3): the dashboard's shell, which loads the
 * Vite-built client (src/web/client/dashboard); the client does the routing. Registered with
 * the prefix /app.
 */
export function dashboardRoutes(page: PageContext) {
  return async (scope: FastifyInstance): Promise<void> => {
    installPageErrors(scope, page, { home: '/app' });
    const shell = async (request: FastifyRequest, reply: FastifyReply) => {
      const client = page.assets.entry(ENTRIES.dashboard);
      if (!client.script)
        throw new Problem(500, 'internal', 'The dashboard is not built: run `npm run build`');
      // No live session (no cookie, or an ended one): the client then knows a person is signed out
      // without asking GET /auth/me, whose 401 a browser reports as a failed load on every visit.
      // When the store cannot say, nothing is said and the client asks as before.
      const signedOut = (await surelySignedOut(request)) === true;
      return sendPage(
        reply,
        <Layout
          title="Intake"
          assets={[page.assets.entry(ENTRIES.base), client]}
          icon={page.assets.url(ENTRIES.icon)}
        >
          {/* the hosted page's stylesheet and script, for the builder's preview (the hosted page's own components and script) */}
          <div
            id="app"
            data-session={signedOut ? 'none' : undefined}
            data-hosted-css={page.assets.entry(ENTRIES.hosted).styles[0]}
            data-hosted-script={page.assets.entry(ENTRIES.page).script}
          >
            <main class="page" id="main">
              <p class="dashboard-loading" role="status">
                Loading the dashboard…
              </p>
              <noscript>
                <p>The dashboard needs JavaScript: turn it on, then reload this page.</p>
              </noscript>
            </main>
          </div>
        </Layout>,
        // it says whether this request had a live session: never reused for another one (a page
        // kept for Back after a sign-in would say "signed out"), by the browser or a shared cache
        { cache: 'no-store' },
      );
    };
    scope.get('/', { schema: { hide: true } }, shell);
    scope.get('/*', { schema: { hide: true } }, shell);
  };
}
