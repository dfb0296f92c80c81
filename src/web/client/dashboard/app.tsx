import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, lazy, Route, Router, useLocation } from 'preact-iso';
import {
  api,
  type SignedOutReason,
  setSession,
  setWorkspaceHeader,
  whenSignedOut,
  whenWorkspaceRefused,
} from './api/client.js';
import {
  ENVIRONMENTS_KEY,
  loadEnvironments,
  loadWorkspaces,
  rememberEnvironment,
  rememberedEnvironment,
  rememberedWorkspace,
  rememberWorkspace,
  type Session,
  SessionContext,
  type User,
  useSession,
  WORKSPACES_KEY,
} from './session.js';
import { Shell } from './shell.js';
import { chosenWorkspace } from './teams/roles.js';
import { focusOn, useTitle } from './ui/controls.js';
import { installLeaveGuard } from './ui/leave-guard.js';
import { forgetCached, setCached, useResource } from './ui/resource.js';

/**
 * The dashboard (API.md §11.3), at /app: who is signed in is asked of GET /auth/me (the
 * HttpOnly session cookie); the views are loaded when first shown. A signed-out person is
 * taken to log-in (and back where they were going after it).
 */

// before the router's listeners: a view's unsaved edits are asked about before it routes
installLeaveGuard();

const signIn = () => import('./account/sign-in.js');
/** The dashboard's views by path, each loaded when first shown (or early: `startEarly`). */
const VIEWS = [
  ['/app/login', lazy(() => signIn().then((module) => module.Login))],
  ['/app/signup', lazy(() => signIn().then((module) => module.Signup))],
  ['/app/forgot', lazy(() => signIn().then((module) => module.Forgot))],
  ['/app/reset', lazy(() => signIn().then((module) => module.Reset))],
  ['/app/invite', lazy(() => import('./teams/invite.js').then((module) => module.Invite))],
  ['/app', lazy(() => import('./forms/list.js').then((module) => module.FormsList))],
  ['/app/forms/:id', lazy(() => import('./builder/view.js').then((module) => module.Builder))],
  ['/app/forms/:id/inbox', lazy(() => import('./inbox/view.js').then((module) => module.Inbox))],
  ['/app/forms/:id/webhooks', lazy(() => import('./webhooks/view.js').then((module) => module.Webhooks))],
  ['/app/analytics', lazy(() => import('./analytics/view.js').then((module) => module.Analytics))],
  ['/app/keys', lazy(() => import('./account/keys.js').then((module) => module.Keys))],
  [
    '/app/environments',
    lazy(() => import('./account/environments.js').then((module) => module.Environments)),
  ],
  ['/app/account', lazy(() => import('./account/view.js').then((module) => module.Account))],
  ['/app/members', lazy(() => import('./teams/members.js').then((module) => module.Members))],
  ['/app/audit', lazy(() => import('./teams/audit.js').then((module) => module.Audit))],
] as const;

/** Whether `path` is the route `pattern` (`:name` stands for one segment), as the router reads it. */
const matches = (pattern: string, path: string): boolean => {
  const want = pattern.split('/');
  const have = path.replace(/\/+$/, '').split('/');
  return (
    want.length === have.length &&
    want.every((part, i) => (part.startsWith(':') ? have[i] !== '' : part === have[i]))
  );
};

/**
 * Starts loading the view of `path` and asking who is signed in, before the app's first render
 * (main.tsx): both would otherwise wait for it, and then for each other. A person opening a
 * bookmark of an inbox waited for the app's first paint, then GET /auth/me, then the inbox's
 * code, one after the other (measured in Chromium: the first rows ~25 ms later).
 */
export function startEarly(path: string): void {
  for (const [pattern, view] of VIEWS) if (matches(pattern, path)) void view.preload().catch(() => undefined);
  askedWhoEarly ??= askWhoFirst();
}
const askWho = () => api.GET('/auth/me');
type Who = Pick<Awaited<ReturnType<typeof askWho>>, 'data'>;
let askedWhoEarly: Promise<Who> | undefined;

/**
 * The first time: the shell says when the request that loaded it carried no live session
 * (web/dashboard.tsx), and then nobody is signed in: GET /auth/me would only answer 401, which the
 * browser reports as a failed load on every signed-out visit. Later asks (none yet) go to the server.
 */
const askWhoFirst = (): Promise<Who> =>
  document.getElementById('app')?.dataset.session === 'none'
    ? Promise.resolve({ data: undefined })
    : askWho();

/** The views a signed-out person may see. */
const PUBLIC = new Set(['/app/login', '/app/signup', '/app/forgot', '/app/reset', '/app/invite']);
/** Public views a signed-in person sees too (a link of a mail, whoever opens it). */
const EITHER = new Set(['/app/reset', '/app/invite']);

function NotFound() {
  useTitle('Page not found');
  return (
    <section class="view">
      <h1>Page not found</h1>
      <p>
        The dashboard has no page here. <a href="/app">See your forms</a>.
      </p>
    </section>
  );
}

function Redirect({ to }: { to: string }) {
  const { route } = useLocation();
  useEffect(() => route(to, true), [to, route]);
  return null;
}

/**
 * On each route change (not the first load), focus moves to the new view's heading, as a page
 * load would put a screen reader at the top: the view may load lazily, so it is waited for.
 */
function useFocusOnNavigation(path: string) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // the view left may still be shown while the next one loads: its heading is not the one
    const left = document.querySelector('main h1');
    let frames = 0;
    const focus = () => {
      const heading = document.querySelector<HTMLElement>('main h1');
      if (heading && heading !== left) focusOn(heading);
      else if (++frames < 300) requestAnimationFrame(focus);
    };
    requestAnimationFrame(focus);
  }, [path]);
}

function Views() {
  const { user, workspace, workspacePending } = useSession();
  const { path, url } = useLocation();
  useFocusOnNavigation(path);
  const open = PUBLIC.has(path);
  if (!user && !open) return <Redirect to={`/app/login?next=${encodeURIComponent(url)}`} />;
  if (user && open && !EITHER.has(path)) return <Redirect to="/app" />;
  if (user && workspacePending)
    return (
      <main class="app-main" id="main">
        <p role="status">Loading the dashboard…</p>
      </main>
    );
  const views = (
    // A view of one workspace is never reused for another: switching mounts it afresh, reading
    // anew. Keyed as the calls are (the personal workspace is the server's default), so the list
    // of workspaces arriving does not mount the view a second time, reading everything twice.
    <Router key={workspace && !workspace.personal ? workspace.id : 'personal'}>
      {VIEWS.map(([path, view]) => (
        <Route key={path} path={path} component={view} />
      ))}
      <Route default component={NotFound} />
    </Router>
  );
  return user ? <Shell>{views}</Shell> : views;
}

export function App() {
  const [user, setUser] = useState<User>();
  const [known, setKnown] = useState(false);
  const [environment, setEnvironmentState] = useState(rememberedEnvironment);

  // a layout effect: the answer is taken as it comes, not after the first paint's frame
  useLayoutEffect(() => {
    const asked = askedWhoEarly ?? askWhoFirst();
    askedWhoEarly = undefined;
    asked
      .then(({ data }) => {
        setSession(data?.user && { user: data.user, csrfToken: data.csrfToken });
        setUser(data?.user);
      })
      .catch(() => setUser(undefined))
      .finally(() => setKnown(true));
  }, []);

  const [signedOutWhy, setSignedOutWhy] = useState<SignedOutReason>();
  const signedIn = useCallback((next: User | undefined, csrfToken?: string) => {
    // what was read for one person is never shown to the next
    forgetCached();
    setSession(next && { user: next, csrfToken });
    setUser(next);
    setSignedOutWhy(undefined);
  }, []);
  useEffect(
    () =>
      whenSignedOut((reason) => {
        signedIn(undefined);
        setSignedOutWhy(reason);
      }),
    [signedIn],
  );
  const setEnvironment = useCallback((name: string) => {
    rememberEnvironment(name);
    setEnvironmentState(name);
  }, []);
  // the switcher's choices: the same list (and read) as the environments view's
  const listed = useResource(user ? ENVIRONMENTS_KEY : undefined, loadEnvironments);
  const environments = useMemo(() => listed.data?.map((entry) => entry.name) ?? [], [listed.data]);
  const reloadEnvironments = listed.reload;
  // a remembered environment that is gone (deleted, or another user's): development
  useEffect(() => {
    if (listed.data && !environments.includes(environment)) setEnvironment('development');
  }, [listed.data, environments, environment, setEnvironment]);

  const [workspaceId, setWorkspaceId] = useState(rememberedWorkspace);
  const listedWorkspaces = useResource(user ? WORKSPACES_KEY : undefined, loadWorkspaces);
  const workspaces = useMemo(() => listedWorkspaces.data ?? [], [listedWorkspaces.data]);
  const workspace = listedWorkspaces.data && chosenWorkspace(listedWorkspaces.data, workspaceId);
  // Set while rendering, before any view below reads (their effects run before this one's): the
  // personal workspace is the server's default, so a person alone never sends the header.
  setWorkspaceHeader(workspace && !workspace.personal ? workspace.id : undefined);
  const reloadWorkspaces = listedWorkspaces.reload;
  const [lostWorkspace, setLostWorkspace] = useState<string>();
  const switchWorkspace = useCallback(
    (id: string) => {
      rememberWorkspace(id);
      setLostWorkspace(undefined);
      // before anything is read again (the render sets it too, and leaves it out for the personal one)
      setWorkspaceHeader(id);
      // what was read in one workspace is never shown in another; the list itself is the person's
      forgetCached('', { keep: WORKSPACES_KEY });
      setWorkspaceId(id);
      void reloadEnvironments();
    },
    [reloadEnvironments],
  );
  // removed from the workspace in use (a read refused): back to the personal one, and told why
  const inUse = useRef(workspace);
  inUse.current = workspace;
  useEffect(
    () =>
      whenWorkspaceRefused(async () => {
        const lost = inUse.current;
        if (!lost || lost.personal) return;
        const list = await loadWorkspaces().catch(() => undefined);
        const personal = list?.find((each) => each.personal);
        if (!list || !personal || list.some((each) => each.id === lost.id) || inUse.current?.id !== lost.id)
          return;
        setCached(WORKSPACES_KEY, list);
        switchWorkspace(personal.id);
        setLostWorkspace(lost.name);
      }),
    [switchWorkspace],
  );
  const role = workspace?.role ?? 'owner';
  // a shared workspace was chosen last: no view reads before it is known to be still the user's
  const workspacePending =
    workspaceId !== undefined && listedWorkspaces.data === undefined && listedWorkspaces.error === undefined;
  const session = useMemo<Session>(
    () => ({
      user,
      signedOutWhy,
      signedIn,
      environment,
      setEnvironment,
      environments,
      reloadEnvironments,
      workspaces,
      workspace,
      role,
      workspacePending,
      lostWorkspace,
      switchWorkspace,
      reloadWorkspaces,
    }),
    [
      user,
      signedOutWhy,
      signedIn,
      environment,
      setEnvironment,
      environments,
      reloadEnvironments,
      workspaces,
      workspace,
      role,
      workspacePending,
      lostWorkspace,
      switchWorkspace,
      reloadWorkspaces,
    ],
  );

  if (!known)
    return (
      <main class="app-main" id="main">
        <p role="status">Loading the dashboard…</p>
      </main>
    );
  return (
    <SessionContext.Provider value={session}>
      <LocationProvider>
        <ErrorBoundary>
          <Views />
        </ErrorBoundary>
      </LocationProvider>
    </SessionContext.Provider>
  );
}
