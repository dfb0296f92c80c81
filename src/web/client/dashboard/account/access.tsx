import { api, ok } from '../api/client.js';
import { useAction } from '../ui/action.js';
import { ConfirmButton } from '../ui/confirm.js';
import { Notice } from '../ui/controls.js';
import { when } from '../ui/format.js';
import { forgetCached, useResource } from '../ui/resource.js';
import { ACCESS_KEY, type Access, deleteKey, type Hook, type Key, keysKey, loadAccess } from './model.js';

/**
 * Every API key and webhook of the account, in every environment, each with a way to revoke
 * it: what goes on reading or sending the account's data without its password. A changed or
 * reset password ends the sessions, not these; someone who had the password meanwhile may have
 * made one, so the mail about the change points here. Always read afresh (never the cache's).
 */
export function AccessList() {
  const access = useResource(ACCESS_KEY, loadAccess, { fresh: true });
  const action = useAction();
  const without = (environment: string, gone: { key?: Key; webhook?: Hook }) =>
    access.set((list) =>
      (list ?? []).map((entry) =>
        entry.environment !== environment
          ? entry
          : {
              ...entry,
              keys: entry.keys.filter((key) => key.id !== gone.key?.id),
              webhooks: entry.webhooks.filter((hook) => hook.id !== gone.webhook?.id),
            },
      ),
    );
  const revokeKey = (environment: string, key: Key) =>
    action.run(async () => {
      await deleteKey(key);
      without(environment, { key });
      // the Keys view's copy would show the revoked key until read again
      forgetCached(keysKey(environment));
    });
  const deleteWebhook = (environment: string, webhook: Hook) =>
    action.run(async () => {
      await ok(api.DELETE('/webhooks/{id}', { params: { path: { id: webhook.id } } }));
      without(environment, { webhook });
      forgetCached(`webhooks:${webhook.formId}`);
    });

  const error = action.error ?? access.error;
  return (
    <section aria-labelledby="access-title">
      <h2 id="access-title">API keys and webhooks</h2>
      <p class="muted">
        These go on working without your password: a new password does not stop them. Revoke any you do not
        know.
      </p>
      {error && (
        <Notice kind="error" announce={error}>
          {error.message}
        </Notice>
      )}
      {access.data === undefined
        ? !access.error && <p role="status">Loading keys and webhooks…</p>
        : access.data.map((entry) => (
            <EnvironmentAccess
              key={entry.environment}
              entry={entry}
              revokeKey={(key) => revokeKey(entry.environment, key)}
              deleteWebhook={(hook) => deleteWebhook(entry.environment, hook)}
            />
          ))}
    </section>
  );
}

function EnvironmentAccess({
  entry,
  revokeKey,
  deleteWebhook,
}: {
  entry: Access;
  revokeKey: (key: Key) => Promise<boolean>;
  deleteWebhook: (hook: Hook) => Promise<boolean>;
}) {
  const { environment, keys, webhooks } = entry;
  return (
    <section class="access" aria-labelledby={`access-${environment}`}>
      <h3 id={`access-${environment}`}>{environment}</h3>
      {keys.length === 0 && webhooks.length === 0 ? (
        <p class="muted">No keys or webhooks.</p>
      ) : (
        <ul class="list">
          {keys.map((key) => {
            const name = `${key.kind === 'secret' ? 'Secret' : 'Publishable'} key …${key.last4}`;
            return (
              <li key={key.id} class="list__item">
                <span>
                  <strong>{name}</strong>
                  <span class="muted">
                    {' '}
                    made {when(key.createdAt)}, last used {key.lastUsedAt ? when(key.lastUsedAt) : 'never'}
                  </span>
                </span>
                <ConfirmButton
                  small
                  label="Revoke"
                  name={`Revoke ${name} (${environment})`}
                  question="Revoke it? Requests with it stop at once."
                  confirmLabel={`Revoke key …${key.last4}`}
                  onConfirm={() => revokeKey(key)}
                />
              </li>
            );
          })}
          {webhooks.map((hook) => (
            <li key={hook.id} class="list__item">
              <span>
                <strong>Webhook to {hook.url}</strong>
                <span class="muted">
                  {' '}
                  {hook.event}, made {when(hook.createdAt)}
                  {hook.enabled ? '' : ', disabled'}
                </span>
              </span>
              <ConfirmButton
                small
                label="Delete"
                name={`Delete webhook to ${hook.url} (${environment})`}
                question="Delete it? Nothing more is sent to it."
                confirmLabel="Delete webhook"
                onConfirm={() => deleteWebhook(hook)}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
