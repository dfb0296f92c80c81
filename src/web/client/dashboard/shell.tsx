import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { api, ok } from './api/client.js';
import { useSession } from './session.js';
import { may } from './teams/roles.js';
import { Notice } from './ui/controls.js';
import { SettledSelect } from './ui/settled-select.js';

/**
 * What a signed-in person sees around every view: where they are, the workspace switcher (only
 * once they belong to more than their personal one), the environment switcher, log-out.
 */

const LINKS = [
  { href: '/app', label: 'Forms' },
  { href: '/app/analytics', label: 'Analytics' },
  { href: '/app/keys', label: 'API keys' },
  { href: '/app/environments', label: 'Environments' },
  { href: '/app/members', label: 'Members' },
  { href: '/app/audit', label: 'Audit log', shared: true },
  { href: '/app/account', label: 'Account' },
];

export function Shell({ children }: { children: ComponentChildren }) {
  const {
    user,
    environment,
    setEnvironment,
    environments,
    signedIn,
    workspaces,
    workspace,
    switchWorkspace,
    role,
    lostWorkspace,
  } = useSession();
  // the audit log is an admin's, of a shared workspace: a person alone has no one to audit
  const links = LINKS.filter(
    (link) => !link.shared || (workspace && !workspace.personal && may(role, 'manageAccess')),
  );
  const { path, route } = useLocation();
  const names = environments.includes(environment) ? environments : [environment, ...environments];
  const logOut = async () => {
    await ok(api.POST('/auth/logout')).catch(() => undefined);
    signedIn(undefined);
    route('/app/login');
  };
  return (
    <>
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <header class="app-header">
        <div class="app-header__inner">
          <a class="brand" href="/app">
            <span class="brand__mark" aria-hidden="true" />
            Intake
          </a>
          <nav aria-label="Dashboard">
            <ul class="app-nav">
              {links.map((link) => (
                <li key={link.href}>
                  <a href={link.href} aria-current={path === link.href ? 'page' : undefined}>
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div class="app-header__end">
            {workspaces.length > 1 && workspace && (
              <div class="switcher">
                <label for="workspace-switcher">Workspace</label>
                <SettledSelect id="workspace-switcher" value={workspace.id} onCommit={switchWorkspace}>
                  {workspaces.map((each) => (
                    <option key={each.id} value={each.id} selected={each.id === workspace.id}>
                      {each.personal ? `${each.name} (personal)` : each.name}
                    </option>
                  ))}
                </SettledSelect>
              </div>
            )}
            <div class="switcher">
              <label for="environment-switcher">Environment</label>
              <SettledSelect id="environment-switcher" value={environment} onCommit={setEnvironment}>
                {names.map((name) => (
                  <option key={name} value={name} selected={name === environment}>
                    {name}
                  </option>
                ))}
              </SettledSelect>
            </div>
            <span class="muted app-header__user">{user?.email}</span>
            <button class="button button--quiet" type="button" onClick={logOut}>
              Log out
            </button>
          </div>
        </div>
      </header>
      <main class="app-main" id="main">
        {lostWorkspace && (
          <Notice kind="info">
            You are no longer a member of {lostWorkspace}: you are back in your personal workspace.
          </Notice>
        )}
        {children}
      </main>
    </>
  );
}
