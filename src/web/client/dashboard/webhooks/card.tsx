import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { may } from '../teams/roles.js';
import { useAction } from '../ui/action.js';
import { ConfirmButton } from '../ui/confirm.js';
import { Notice } from '../ui/controls.js';
import { CopyButton } from '../ui/copy.js';
import { DeliveryList, useDeliveries } from './deliveries.js';
import { WebhookEditor, type WebhookValues } from './editor.js';
import {
  eventWords,
  formatWords,
  type Health,
  healthWords,
  verdictOf,
  type Webhook,
  type WebhookEvent,
  type WebhookFormat,
  when,
} from './model.js';

const HEALTH_BADGE: Record<Health['state'], string> = {
  untried: 'Not tried yet',
  working: 'Working',
  failing: 'Failing',
};

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
  const [secret, setSecret] = useState<string>();
  const { error, run: attempt } = useAction();
  const deliveries = useDeliveries(webhook.id);
  const base = `hook-${webhook.id}`;
  // a viewer reads a webhook and its deliveries; the view says why there is nothing to change
  const manages = may(useSession().role, 'manageForms');
  const { url } = webhook;

  // focus follows what the person did: into the editor, back to its button after
  const focusNext = useRef<string | undefined>(undefined);
  useEffect(() => {
    const id = focusNext.current;
    focusNext.current = undefined;
    if (id) document.getElementById(id)?.focus();
  }, [editing]);
  const edit = (next: boolean, focus: string) => {
    focusNext.current = focus;
    setEditing(next);
  };
  const path = { params: { path: { id: webhook.id } } };

  // its health follows the deliveries as the view reads them again (a retry failing, or getting
  // through): read anew after each later look, not the first (the list came with the webhook)
  const looks = useRef(0);
  useEffect(() => {
    if (!deliveries.list || looks.current++ === 0) return;
    api.GET('/webhooks/{id}', path).then(
      ({ data }) => data && changed(data),
      () => undefined,
    );
  }, [deliveries.list]);

  const save = async (values: WebhookValues) => {
    const changes = changesOf(webhook, values);
    setSecret(undefined);
    if (Object.keys(changes).length > 0) {
      changed(await ok(api.PATCH('/webhooks/{id}', { ...path, body: changes })));
      if (changes.secret) setSecret(changes.secret);
    }
    edit(false, `${base}-edit`);
  };
  const toggle = () =>
    attempt(async () => {
      changed(await ok(api.PATCH('/webhooks/{id}', { ...path, body: { enabled: !webhook.enabled } })));
    });
  // "Send test" waits for the one attempt a test gets, and says what it came to
  const [testing, setTesting] = useState(false);
  const [verdict, setVerdict] = useState<{ ok: boolean; words: string }>();
  const test = () =>
    attempt(async () => {
      setVerdict(undefined);
      setTesting(true);
      try {
        const delivery = await ok(
          api.POST('/webhooks/{id}/test', { params: { path: { id: webhook.id }, query: { wait: true } } }),
        );
        deliveries.queued(delivery);
        setVerdict(verdictOf(delivery));
        // its health follows the test
        changed(await ok(api.GET('/webhooks/{id}', path)));
      } finally {
        setTesting(false);
      }
    });
  const remove = () =>
    attempt(async () => {
      await ok(api.DELETE('/webhooks/{id}', path));
      removed();
    });

  const failing = webhook.health.state === 'failing';
  return (
    <li class={`hook${failing && webhook.enabled ? ' hook--failing' : ''}`}>
      <article aria-labelledby={`${base}-title`}>
        <h3 id={`${base}-title`} class="hook__url">
          {url}
        </h3>
        <dl class="hook__facts">
          <div>
            <dt>Event</dt>
            <dd>{eventWords(webhook.event)}</dd>
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
              </span>{' '}
              <span class={`badge badge--health-${webhook.health.state}`}>
                {HEALTH_BADGE[webhook.health.state]}
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
        <p class={`hook__health${failing ? ' hook__health--failing' : ''}`}>{healthWords(webhook.health)}</p>
        {/* the verdict of "Send test", read out when it comes */}
        <div role="status" class="hook__verdict">
          {testing && <p class="muted">Sending a test… (a receiver has up to 10 seconds to answer)</p>}
          {verdict && (
            <p class={`notice ${verdict.ok ? 'notice--success' : 'notice--warning'}`}>{verdict.words}</p>
          )}
        </div>
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
            cancel={() => edit(false, `${base}-edit`)}
          />
        ) : (
          manages && (
            <p class="actions">
              <button
                id={`${base}-edit`}
                class="button button--small"
                type="button"
                aria-label={`Edit: ${url}`}
                onClick={() => edit(true, `${base}-form-url`)}
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
                  disabled={testing}
                  onClick={test}
                >
                  Send test
                </button>
              )}
              <ConfirmButton
                small
                label="Delete"
                name={`Delete: ${url}`}
                question="Delete this webhook? Nothing more is sent to it."
                confirmLabel="Delete webhook"
                onConfirm={remove}
              />
            </p>
          )
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
