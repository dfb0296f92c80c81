import { useState } from 'preact/hooks';
import { api, ok } from '../api/client.js';
import { ENVIRONMENTS_KEY, loadEnvironments, useSession } from '../session.js';
import { may, needs } from '../teams/roles.js';
import { useAction } from '../ui/action.js';
import { ConfirmButton } from '../ui/confirm.js';
import { Notice, TextInput, useTitle } from '../ui/controls.js';
import { useResource } from '../ui/resource.js';

/**
 * Environments (API.md §3): each holds its own forms, keys, submissions and analytics.
 * development and production always exist; another is deleted once it holds nothing, and when
 * it still does, the refusal says what to delete first.
 */
export function Environments() {
  useTitle('Environments');
  const { environment, setEnvironment, reloadEnvironments, role } = useSession();
  const manages = may(role, 'manageAccess');
  const list = useResource(ENVIRONMENTS_KEY, loadEnvironments);
  const [name, setName] = useState('');
  const [news, setNews] = useState<string>();
  const action = useAction();

  const changed = async (words: string) => {
    setNews(words);
    await reloadEnvironments();
  };
  const create = (event: Event) => {
    event.preventDefault();
    setNews(undefined);
    void action.run(async () => {
      const created = await ok(api.POST('/environments', { body: { name } }));
      setName('');
      await changed(`${created.name} is created.`);
    });
  };
  const remove = (target: string) => {
    setNews(undefined);
    return action.run(async () => {
      await ok(api.DELETE('/environments/{name}', { params: { path: { name: target } } }));
      if (environment === target) setEnvironment('development');
      await changed(`${target} is deleted.`);
    });
  };

  const error = action.error ?? list.error;
  const nameError = action.error?.about('name');
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
      {list.data === undefined ? (
        !list.error && <p role="status">Loading environments…</p>
      ) : (
        <ul class="list">
          {list.data.map((entry) => (
            <li key={entry.name} class="list__item">
              <span>
                <strong>{entry.name}</strong>
                {entry.isDefault && <span class="badge">always there</span>}
                {entry.name === environment && <span class="badge badge--accent">in use</span>}
              </span>
              {!entry.isDefault && manages && (
                <ConfirmButton
                  small
                  label="Delete"
                  name={`Delete ${entry.name}`}
                  question={`Delete ${entry.name}?`}
                  confirmLabel={`Delete ${entry.name}`}
                  onConfirm={() => remove(entry.name)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <h2>New environment</h2>
      {!manages && (
        <p class="hint">{needs(role, 'manageAccess')} Admins and owners make and delete environments.</p>
      )}
      {manages && (
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
          <button class="button button--primary" type="submit" disabled={action.busy}>
            Create environment
          </button>
        </form>
      )}
    </section>
  );
}
