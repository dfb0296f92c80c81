import { useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, ok } from '../api/client.js';
import { useStoredForm } from '../forms/resource.js';
import { useSession } from '../session.js';
import { may, needs } from '../teams/roles.js';
import { focusOn, Notice, useTitle } from '../ui/controls.js';
import { CopyButton } from '../ui/copy.js';
import { useResource } from '../ui/resource.js';
import { WebhookCard } from './card.js';
import { WebhookEditor, type WebhookValues } from './editor.js';
import type { Webhook } from './model.js';

/**
 * A form's webhooks (API.md §7, §11.3): the list, each with its deliveries and their attempts
 * (redeliver, refresh, followed while one is on its way), edit, enable or disable, test, delete
 * after confirming; and a webhook added, with a generated secret shown to copy (the API never
 * returns it).
 */
export function Webhooks() {
  const { role } = useSession();
  const { params } = useRoute();
  const formId = params.id ?? '';
  const stored = useStoredForm(formId);
  const form = stored.data;
  const hooks = useResource(
    `webhooks:${formId}`,
    async () => (await ok(api.GET('/webhooks', { params: { query: { form_id: formId, limit: 100 } } }))).data,
  );
  // the secret of the webhook just added, shown once, for this form only
  const [added, setAdded] = useState<{ formId: string; url: string; secret: string }>();
  const listTitle = useRef<HTMLHeadingElement>(null);
  useTitle(form ? `Webhooks: ${form.title}` : 'Webhooks');
  const error = stored.error ?? hooks.error;
  const shownAdded = added?.formId === formId ? added : undefined;

  const add = async (values: WebhookValues) => {
    setAdded(undefined);
    const created = await ok(
      api.POST('/webhooks', {
        body: {
          formId,
          url: values.url,
          event: values.event,
          format: values.format,
          ...(values.secret ? { secret: values.secret } : {}),
        },
      }),
    );
    // newest first, as the API lists them
    hooks.set((list) => [created, ...(list ?? [])]);
    setAdded({ formId, url: created.url, secret: values.secret });
  };
  const changed = (next: Webhook) =>
    hooks.set((list) => (list ?? []).map((hook) => (hook.id === next.id ? next : hook)));
  const removed = (gone: Webhook) => {
    hooks.set((list) => (list ?? []).filter((hook) => hook.id !== gone.id));
    // the card that had focus is gone: the list's heading takes it
    focusOn(listTitle.current);
  };

  return (
    <section class="view webhooks">
      <h1>Webhooks{form ? `: ${form.title}` : ''}</h1>
      <p class="muted">
        Intake POSTs this form’s events as JSON to each URL, with the headers <code>webhook-id</code>,{' '}
        <code>webhook-timestamp</code> and, when the webhook has a secret, <code>webhook-signature</code>{' '}
        (Standard Webhooks). An answer other than 2xx within 10 seconds is tried again, for about a day.
      </p>
      {error && (
        <Notice kind="error" announce={error}>
          {error.message}
        </Notice>
      )}
      {error && hooks.data === undefined ? null : (
        <div class="webhooks__columns">
          <section aria-labelledby="hooks-title">
            <h2 id="hooks-title" ref={listTitle}>
              This form’s webhooks
            </h2>
            {hooks.data === undefined ? (
              <p role="status">Loading webhooks…</p>
            ) : hooks.data.length === 0 ? (
              <p class="empty">No webhooks yet. Add one to have this form’s events sent to your server.</p>
            ) : (
              <ul class="hooks">
                {hooks.data.map((hook) => (
                  <WebhookCard key={hook.id} webhook={hook} changed={changed} removed={() => removed(hook)} />
                ))}
              </ul>
            )}
          </section>
          <section class="webhooks__add" aria-labelledby="add-title">
            <h2 id="add-title">Add a webhook</h2>
            {shownAdded && (
              <Notice kind="success">
                <p>Webhook added: events now go to {shownAdded.url}.</p>
                {shownAdded.secret && (
                  <>
                    <p>
                      Its secret, shown this once (Intake keeps it encrypted and never returns it): copy it
                      into your receiver.
                    </p>
                    <p>
                      <code class="secret">{shownAdded.secret}</code>{' '}
                      <CopyButton text={shownAdded.secret} label="Copy secret" />
                    </p>
                  </>
                )}
              </Notice>
            )}
            {may(role, 'manageForms') ? (
              <WebhookEditor id="new-hook" submitLabel="Add webhook" save={add} />
            ) : (
              <p class="hint">{needs(role, 'manageForms')} Editors add, change and delete webhooks.</p>
            )}
          </section>
        </div>
      )}
    </section>
  );
}
