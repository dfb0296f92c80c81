import { useCallback, useEffect, useState } from 'preact/hooks';
import { type ApiError, api, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { Notice, TextInput, useTitle } from '../ui/controls.js';

/**
 * Environments (API.md §3): each holds its own forms, keys, submissions and analytics.
 * development and production always exist; another is deleted once it holds nothing, and when
 * it still does, the refusal says what to delete first.
 */
interface Environment {
  name: string;
  isDefault: boolean;
  createdAt: string;
}

export function Environments() {
  useTitle('Environments');
  const { environment, setEnvironment, reloadEnvironments } = useSession();
  const [list, setList] = useState<Environment[]>();
  const [name, setName] = useState('');
  const [error, setError] = useState<ApiError>();
  const [news, setNews] = useState<string>();
  const [confirming, setConfirming] = useState<string>();

  const load = useCallback(async () => {
    try {
      setList((await ok(api.GET('/environments'))).data);
    } catch (caught) {
      setError(caught as ApiError);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setNews(undefined);
    try {
      const created = await ok(api.POST('/environments', { body: { name } }));
      setName('');
      setNews(`${created.name} is created.`);
      await Promise.all([load(), reloadEnvironments()]);
    } catch (caught) {
      setError(caught as ApiError);
    }
  };
  const remove = async (target: string) => {
    setError(undefined);
    setNews(undefined);
    try {
      await ok(api.DELETE('/environments/{name}', { params: { path: { name: target } } }));
      setConfirming(undefined);
      setNews(`${target} is deleted.`);
      if (environment === target) setEnvironment('development');
      await Promise.all([load(), reloadEnvironments()]);
    } catch (caught) {
      setConfirming(undefined);
      setError(caught as ApiError);
    }
  };

  const nameError = error?.about('name') ?? (error?.status === 409 && !confirming ? undefined : undefined);
  return (
    <section class="view">
      <h1>Environments</h1>
      <p class="muted">
        Each environment has its own forms, keys, submissions and analytics. Build in development, then copy a
        form to production.
      </p>
      {news && <Notice kind="success">{news}</Notice>}
      {error && !nameError && (
        <Notice kind="error" announce={error}>
          {error.message}
        </Notice>
      )}
      {list === undefined ? (
        <p role="status">Loading environments…</p>
      ) : (
        <ul class="list">
          {list.map((entry) => (
            <li key={entry.name} class="list__item">
              <span>
                <strong>{entry.name}</strong>
                {entry.isDefault && <span class="badge">always there</span>}
                {entry.name === environment && <span class="badge badge--accent">in use</span>}
              </span>
              {!entry.isDefault &&
                (confirming === entry.name ? (
                  <span class="confirm">
                    Delete {entry.name}?{' '}
                    <button
                      class="button button--danger button--small"
                      type="button"
                      onClick={() => remove(entry.name)}
                    >
                      Delete {entry.name}
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
                    onClick={() => setConfirming(entry.name)}
                  >
                    Delete<span class="visually-hidden"> {entry.name}</span>
                  </button>
                ))}
            </li>
          ))}
        </ul>
      )}
      <h2>New environment</h2>
      <form class="stack narrow" onSubmit={create} noValidate>
        <TextInput
          id="environment-name"
          label="Name"
          hint="Lower-case letters, digits, - and _, such as staging."
          required
          value={name}
          onInput={setName}
          error={nameError}
        />
        <button class="button button--primary" type="submit">
          Create environment
        </button>
      </form>
    </section>
  );
}
