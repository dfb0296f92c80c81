import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { api, ok } from './api/client.js';
import { useSession } from './session.js';

/** What a signed-in person sees around every view: where they are, the environment switcher, log-out. */

const LINKS = [
  { href: '/app', label: 'Forms' },
  { href: '/app/analytics', label: 'Analytics' },
  { href: '/app/keys', label: 'API keys' },
  { href: '/app/environments', label: 'Environments' },
  { href: '/app/account', label: 'Account' },
];

export function Shell({ children }: { children: ComponentChildren }) {
  const { user, environment, setEnvironment, environments, signedIn } = useSession();
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
              {LINKS.map((link) => (
                <li key={link.href}>
                  <a href={link.href} aria-current={path === link.href ? 'page' : undefined}>
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div class="app-header__end">
            <div class="switcher">
              <label for="environment-switcher">Environment</label>
              <select
                id="environment-switcher"
                value={environment}
                onChange={(event) => setEnvironment(event.currentTarget.value)}
              >
                {names.map((name) => (
                  <option key={name} value={name} selected={name === environment}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
            <span class="muted app-header__user">{user?.email}</span>
            <button class="button button--quiet" type="button" onClick={logOut}>
              Log out
            </button>
          </div>
        </div>
      </header>
      <main class="app-main" id="main">
        {children}
      </main>
    </>
  );
}
