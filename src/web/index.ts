import type { FastifyInstance } from 'fastify';
import type { EventRecorder } from '../features/analytics/commands.js';
import { findForm } from '../features/forms/repo.js';
import type { SubmissionService } from '../features/submissions/service.js';
import { isMember as isWorkspaceMember } from '../features/workspaces/repo.js';
import { NO_SESSION_COOKIE } from '../platform/auth.js';
import type { AppContext } from '../platform/context.js';
import { SHIPPED_LANGUAGES, wordsFor } from '../shared/i18n/catalogues.js';
import { chooseLanguage } from '../shared/i18n/negotiate.js';
import { assetRoutes, loadWebAssets } from './assets.js';
import { dashboardRoutes } from './dashboard.js';
import { embedScriptRoute } from './embed-script.js';
import { PAGE_LANGUAGES } from './hosted/page-language.js';
import { answersInProblems, hostedRoutes } from './hosted/routes.js';
import { installPageErrors, type PageContext } from './pages.js';

/**
 * Intake's web pages (API.md §11), beside the API in the same process: the client build
 * under /assets/, the dashboard at /app, the hosted forms at /f. Each is a scope of its own
 * prefix whose unknown paths and errors are HTML pages; the API keeps its problem documents.
 */
/** What the pages call: the features' services, handed over by app.ts. */
export interface WebDependencies {
  /** The one submit path (features/submissions), for the hosted form's posts. */
  submissions: SubmissionService;
  /** Views and starts (features/analytics), which the hosted form counts itself. */
  events: EventRecorder;
}

export async function registerWeb(
  app: FastifyInstance,
  context: AppContext,
  { submissions, events }: WebDependencies,
): Promise<void> {
  const assets = loadWebAssets();
  if (assets.dir === undefined) {
    app.log.warn('the web client is not built (run `npm run build`): /app answers 500 until it is');
  }
  const page: PageContext = {
    assets,
    production: context.config.production,
    branding: context.config.branding,
    fileMaxBytes: context.config.fileMaxBytes,
  };
  await app.register(
    async (scope) => {
      withoutSessionCookie(scope);
      installPageErrors(scope, page);
      await scope.register(assetRoutes(assets));
    },
    { prefix: '/assets' },
  );
  await app.register(
    async (scope) => {
      withoutSessionCookie(scope);
      await scope.register(dashboardRoutes(page));
    },
    { prefix: '/app' },
  );
  // The embedding script (API.md §11.2), for other sites' pages: no cookie, no CORS (a <script> needs none).
  await app.register(async (scope) => {
    withoutSessionCookie(scope);
    await scope.register(embedScriptRoute(assets));
  });
  // The hosted form pages (API.md §11.1): GET and POST /f/{formId}; any other /f/… is the 404 page.
  await app.register(
    async (scope) => {
      // No route here takes the cookie (a stale one never turns a form into a 401): the owner's
      // preview (?preview=1) reads it itself, and only then (routes.tsx, `sessionFromCookie`).
      withoutSessionCookie(scope);
      // An error in an embedded form's frame (?embed=1: a form closed, a limit reached) is shown
      // in that frame, not refused by the browser: an error page holds nothing to click.
      installPageErrors(scope, page, {
        policyOf: (request) =>
          (request.query as Record<string, unknown> | undefined)?.embed === '1'
            ? { frameAncestors: ['*'] }
            : {},
        // a form's page in its language; an unknown form's in the best of Intake's own (API.md §13)
        wordsOf: (request) =>
          wordsFor(
            PAGE_LANGUAGES.get(request) ??
              chooseLanguage(SHIPPED_LANGUAGES, {
                lang: (request.query as Record<string, unknown> | undefined)?.lang,
                acceptLanguage: request.headers['accept-language'],
              }),
          ),
        // a post that asks for JSON is answered like the JSON submit, refusals too (API.md §12)
        wantsProblems: answersInProblems,
      });
      const forms = (formId: string) => findForm(context.database.db, formId);
      const isMember = (workspaceId: string, userId: string) =>
        isWorkspaceMember(context.database.db, workspaceId, userId);
      await scope.register(
        hostedRoutes(page, {
          submissions,
          events,
          forms,
          isMember,
          frontDoor: context.frontDoor,
        }),
      );
    },
    { prefix: '/f' },
  );
}

/**
 * The shell and its assets are the same for everyone, and the client asks the API who is logged
 * in: the session cookie is not read on these routes, so a stale one never turns a page into a 401.
 */
function withoutSessionCookie(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, ...NO_SESSION_COOKIE };
  });
}
