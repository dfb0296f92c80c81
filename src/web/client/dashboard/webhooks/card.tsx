import { useEffect, useRef, useState } from 'preact/hooks';
import { type ApiError, api, apiErrorOf, ok } from '../api/client.js';
import { Notice } from '../ui/controls.js';
import { CopyButton } from '../ui/copy.js';
import { DeliveryList, useDeliveries } from './deliveries.js';
import { WebhookEditor, type WebhookValues } from './editor.js';
import { formatWords, type Webhook, type WebhookEvent, type WebhookFormat, when } from './model.js';

/**
 * One webhook of the form: what it sends where, edit (a blank secret keeps the current one, or
 * it is removed), enable or disable, send a test, delete after confirming, and its deliveries.
 * Buttons repeated on every webhook are named after its URL ("Send test: https://…").
 */

type Changes = {
  url?: string;
  event?: WebhookEvent;
  format?: WebhookFormat;
  secret?: string | null;
};

/** What the edit changes, and only that: an unchanged URL is not sent (nor judged) again. */
function changesOf(webhook: Webhook, values: WebhookValues): Changes {
  const changes: Changes = {};
  if (values.url !== webhook.url) changes.url = values.url;
  if (values.event !== webhook.event) changes.event = values.event;
  if (values.format !== webhook.format) changes.format = values.format;
  if (values.secret) changes.secret = values.secret;
  else if (values.removeSecret) changes.secret = null;
  return changes;
}

export function WebhookCard({
  webhook,
  changed,
  removed,
}: {
  webhook: Webhook;
  changed: (next: Webhook) => void;
  removed: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [secret, setSecret] = useState<string>();
  const deliveries = useDeliveries(webhook.id);
  const base = `hook-${webhook.id}`;
  const { url } = webhook;

  // focus follows what the person did: into the editor or the question, back to the button after
  const focusNext = useRef<string | undefined>(undefined);
  useEffect(() => {
    const id = focusNext.current;
    focusNext.current = undefined;
    if (id) document.getElementById(id)?.focus();
  }, [editing, confirming]);
  const show = (state: { editing?: boolean; confirming?: boolean }, focus: string) => {
    focusNext.current = focus;
    if (state.editing !== undefined) setEditing(state.editing);
    if (state.confirming !== undefined) setConfirming(state.confirming);
  };

  /** Runs one change of this webhook; a refusal is shown on it. */
  const attempt = async (work: () => Promise<void>) => {
    setError(undefined);
    try {
      await work();
    } catch (caught) {
      setError(apiErrorOf(caught));
    }
  };
  const path = { params: { path: { id: webhook.id } } };

  const save = async (values: WebhookValues) => {
    const changes = changesOf(webhook, values);
    setSecret(undefined);
    if (Object.keys(changes).length > 0) {
      changed(await ok(api.PATCH('/webhooks/{id}', { ...path, body: changes })));
      if (changes.secret) setSecret(changes.secret);
    }
    show({ editing: false }, `${base}-edit`);
  };
  const toggle = () =>
    attempt(async () => {
      changed(await ok(api.PATCH('/webhooks/{id}', { ...path, body: { enabled: !webhook.enabled } })));
    });
  const test = () =>
    attempt(async () => {
      deliveries.queued(await ok(api.POST('/webhooks/{id}/test', path)));
    });
  const remove = () =>
    attempt(async () => {
      await ok(api.DELETE('/webhooks/{id}', path));
      removed();
    });

  return (
    <li class="hook">
      <article aria-labelledby={`${base}-title`}>
        <h3 id={`${base}-title`} class="hook__url">
          {url}
        </h3>
        <dl class="hook__facts">
          <div>
            <dt>Event</dt>
            <dd>{webhook.event}</dd>
          </div>
          <div>
            <dt>Format</dt>
            <dd>{formatWords(webhook.format)}</dd>
          </div>
          <div>
            <dt>State</dt>
            <dd>
              <span class={`badge badge--${webhook.enabled ? 'enabled' : 'disabled'}`}>
                {webhook.enabled ? 'Enabled' : 'Disabled'}
              </span>
            </dd>
          </div>
          <div>
            <dt>Secret</dt>
            <dd>{webhook.hasSecret ? 'Set: deliveries are signed' : 'None: deliveries are not signed'}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>{when(webhook.createdAt)}</dd>
          </div>
        </dl>
        {error && (
          <Notice kind="error" announce={error}>
            {error.message}
          </Notice>
        )}
        {secret && (
          <Notice kind="success">
            <p>The new secret is saved. Copy it now if you have not: Intake never shows it again.</p>
            <p>
              <code class="secret">{secret}</code> <CopyButton text={secret} label="Copy secret" />
            </p>
          </Notice>
        )}
        {editing ? (
          <WebhookEditor
            id={`${base}-form`}
            webhook={webhook}
            submitLabel="Save changes"
            save={save}
            cancel={() => show({ editing: false }, `${base}-edit`)}
          />
        ) : (
          <p class="actions">
            <button
              id={`${base}-edit`}
              class="button button--small"
              type="button"
              aria-label={`Edit: ${url}`}
              onClick={() => show({ editing: true, confirming: false }, `${base}-form-url`)}
            >
              Edit
            </button>
            <button
              class="button button--small"
              type="button"
              aria-label={`${webhook.enabled ? 'Disable' : 'Enable'}: ${url}`}
              onClick={toggle}
            >
              {webhook.enabled ? 'Disable' : 'Enable'}
            </button>
            {webhook.enabled && (
              <button
                class="button button--small"
                type="button"
                aria-label={`Send test: ${url}`}
                onClick={test}
              >
                Send test
              </button>
            )}
            {confirming ? (
              <span class="confirm">
                Delete this webhook? Nothing more is sent to it.{' '}
                <button
                  id={`${base}-delete-yes`}
                  class="button button--danger button--small"
                  type="button"
                  onClick={remove}
                >
                  Delete webhook
                </button>
                <button
                  class="button button--small"
                  type="button"
                  onClick={() => show({ confirming: false }, `${base}-delete`)}
                >
                  Keep it
                </button>
              </span>
            ) : (
              <button
                id={`${base}-delete`}
                class="button button--danger button--small"
                type="button"
                aria-label={`Delete: ${url}`}
                onClick={() => show({ confirming: true }, `${base}-delete-yes`)}
              >
                Delete
              </button>
            )}
          </p>
        )}
        {!webhook.enabled && (
          <p class="muted">
            Disabled: Intake sends it nothing, tests and redeliveries included, until you enable it. (A
            receiver answering 410 Gone disables its webhook.)
          </p>
        )}
        <DeliveryList webhook={webhook} deliveries={deliveries} />
      </article>
    </li>
  );
}
