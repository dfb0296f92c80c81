import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type ApiError, api, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { Notice, useTitle } from '../ui/controls.js';
import { CopyButton } from '../ui/copy.js';

/**
 * API keys of the environment (API.md §4): secret keys for servers, publishable keys for
 * browsers. A new key is shown once, with a copy button; the list shows the last four
 * characters and when each was last used.
 */
interface Key {
  id: string;
  kind: 'secret' | 'publishable';
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');

export function Keys() {
  useTitle('API keys');
  const { environment } = useSession();
  const [keys, setKeys] = useState<Key[]>();
  const [created, setCreated] = useState<{ kind: string; key: string }>();
  const [error, setError] = useState<ApiError>();
  const [confirming, setConfirming] = useState<string>();

  // the environment the view shows now: an answer for one left meanwhile is dropped
  const shown = useRef(environment);
  shown.current = environment;
  const load = useCallback(async () => {
    const asked = environment;
    try {
      const list = (await ok(api.GET('/keys', { params: { query: { environment: asked } } }))).data;
      if (shown.current === asked) setKeys(list);
    } catch (caught) {
      if (shown.current === asked) setError(caught as ApiError);
    }
  }, [environment]);
  useEffect(() => {
    setKeys(undefined);
    setCreated(undefined);
    setError(undefined);
    void load();
  }, [load]);

  const create = async (kind: 'secret' | 'publishable') => {
    setError(undefined);
    try {
      const query = { params: { query: { environment } } };
      const answer =
        kind === 'secret'
          ? await ok(api.POST('/keys/secrets', query))
          : await ok(api.POST('/keys/publishable', query));
      setCreated({ kind, key: answer.key });
      await load();
    } catch (caught) {
      setError(caught as ApiError);
    }
  };
  const remove = async (key: Key) => {
    setError(undefined);
    try {
      const path = { params: { path: { keyId: key.id } } };
      if (key.kind === 'secret') await ok(api.DELETE('/keys/secrets/{keyId}', path));
      else await ok(api.DELETE('/keys/publishable/{keyId}', path));
      setConfirming(undefined);
      await load();
    } catch (caught) {
      setError(caught as ApiError);
    }
  };

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
      {created && (
        <Notice kind="success">
          <p>
            Your new {created.kind} key. Copy it now: it is shown this once, and Intake keeps only a hash of
            it.
          </p>
          <p>
            <code class="secret">{created.key}</code> <CopyButton text={created.key} label="Copy key" />
          </p>
        </Notice>
      )}
      <p class="actions">
        <button class="button button--primary" type="button" onClick={() => create('secret')}>
          Create secret key
        </button>
        <button class="button" type="button" onClick={() => create('publishable')}>
          Create publishable key
        </button>
      </p>
      {keys === undefined ? (
        <p role="status">Loading keys…</p>
      ) : keys.length === 0 ? (
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
              {keys.map((key) => (
                <tr key={key.id}>
                  <td>{key.kind === 'secret' ? 'Secret' : 'Publishable'}</td>
                  <td>
                    <code>…{key.last4}</code>
                  </td>
                  <td>{when(key.createdAt)}</td>
                  <td>{when(key.lastUsedAt)}</td>
                  <td>
                    {confirming === key.id ? (
                      <span class="confirm">
                        Delete it? Requests with it stop at once.{' '}
                        <button
                          class="button button--danger button--small"
                          type="button"
                          onClick={() => remove(key)}
                        >
                          Delete key …{key.last4}
                        </button>{' '}
                        <button
                          class="button button--small"
                          type="button"
                          onClick={() => setConfirming(undefined)}
                        >
                          Keep it
                        </button>
                      </span>
                    ) : (
                      <button
                        class="button button--small"
                        type="button"
                        onClick={() => setConfirming(key.id)}
                      >
                        Delete<span class="visually-hidden"> key …{key.last4}</span>
                      </button>
                    )}
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
