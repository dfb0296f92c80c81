import { useState } from 'preact/hooks';
import { api, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { may, needs } from '../teams/roles.js';
import { useAction } from '../ui/action.js';
import { ConfirmButton } from '../ui/confirm.js';
import { focusOn, Notice, useTitle } from '../ui/controls.js';
import { CopyButton } from '../ui/copy.js';
import { useResource } from '../ui/resource.js';
import { deleteKey, type Key, keysKey, loadKeys, whenOrNever } from './model.js';

/**
 * API keys of the environment (API.md §4): secret keys for servers, publishable keys for
 * browsers. A new key is shown once, with a copy button; the list shows the last four
 * characters and when each was last used.
 */
export function Keys() {
  useTitle('API keys');
  const { role } = useSession();
  if (!may(role, 'manageAccess'))
    return (
      <section class="view">
        <h1>API keys</h1>
        <p>{needs(role, 'manageAccess')} Admins and owners make and delete this workspace's keys.</p>
      </section>
    );
  return <KeysOfEnvironment />;
}

function KeysOfEnvironment() {
  const { environment } = useSession();
  const keys = useResource(keysKey(environment), () => loadKeys(environment));
  // the key just made, for the environment it was made in (gone when another is shown)
  const [created, setCreated] = useState<{ environment: string; kind: string; key: string }>();
  const action = useAction();
  const shownKey = created?.environment === environment ? created : undefined;

  const create = (kind: Key['kind']) =>
    action.run(async () => {
      const query = { params: { query: { environment } } };
      const answer =
        kind === 'secret'
          ? await ok(api.POST('/keys/secrets', query))
          : await ok(api.POST('/keys/publishable', query));
      setCreated({ environment, kind, key: answer.key });
      await keys.reload();
      // the key is shown this once: the keyboard goes to it, not back to the button that made it
      requestAnimationFrame(() => focusOn(document.querySelector<HTMLElement>('.new-key .copy button')));
    });
  const remove = (key: Key) =>
    action.run(async () => {
      await deleteKey(key);
      keys.set((list) => (list ?? []).filter((other) => other.id !== key.id));
    });

  const error = action.error ?? keys.error;
  return (
    <section class="view">
      <h1>API keys</h1>
      <p class="muted">
        Keys of the <strong>{environment}</strong> environment. A secret key is for your servers (it reads and
        writes everything here); a publishable key may sit in a web page (it only submits to live forms).
      </p>
      {error && (
        <Notice kind="error" announce={error}>
          {error.message}
        </Notice>
      )}
      {shownKey && (
        <Notice kind="success">
          <p>
            Your new {shownKey.kind} key. Copy it now: it is shown this once, and Intake keeps only a hash of
            it.
          </p>
          <p class="new-key">
            <code class="secret">{shownKey.key}</code> <CopyButton text={shownKey.key} label="Copy key" />
          </p>
        </Notice>
      )}
      <p class="actions">
        <button
          class="button button--primary"
          type="button"
          disabled={action.busy}
          onClick={() => create('secret')}
        >
          Create secret key
        </button>
        <button class="button" type="button" disabled={action.busy} onClick={() => create('publishable')}>
          Create publishable key
        </button>
      </p>
      {keys.data === undefined ? (
        !keys.error && <p role="status">Loading keys…</p>
      ) : keys.data.length === 0 ? (
        <p class="empty">No keys in {environment} yet. Create one to call the API from your code.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">API keys of {environment}</caption>
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Ends with</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.id}>
                  <td>{key.kind === 'secret' ? 'Secret' : 'Publishable'}</td>
                  <td>
                    <code>…{key.last4}</code>
                  </td>
                  <td>{whenOrNever(key.createdAt)}</td>
                  <td>{whenOrNever(key.lastUsedAt)}</td>
                  <td>
                    <ConfirmButton
                      small
                      label="Delete"
                      name={`Delete key …${key.last4}`}
                      question="Delete it? Requests with it stop at once."
                      confirmLabel={`Delete key …${key.last4}`}
                      onConfirm={() => remove(key)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
