import { useEffect, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { type ApiError, api, ok } from '../api/client.js';
import { focusOn, Notice, useTitle } from '../ui/controls.js';
import { CopyButton } from '../ui/copy.js';
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
  const { params } = useRoute();
  const formId = params.id ?? '';
  const [form, setForm] = useState<{ title: string }>();
  const [hooks, setHooks] = useState<Webhook[]>();
  const [error, setError] = useState<ApiError>();
  const [added, setAdded] = useState<{ url: string; secret: string }>();
  const listTitle = useRef<HTMLHeadingElement>(null);
  useTitle(form ? `Webhooks: ${form.title}` : 'Webhooks');

  useEffect(() => {
    let current = true;
    setForm(undefined);
    setHooks(undefined);
    setError(undefined);
    setAdded(undefined);
    const failed = (caught: ApiError) => current && setError(caught);
    ok(api.GET('/forms/{id}', { params: { path: { id: formId } } }))
      .then((loaded) => current && setForm(loaded))
      .catch(failed);
    ok(api.GET('/webhooks', { params: { query: { form_id: formId, limit: 100 } } }))
      .then((page) => current && setHooks(page.data))
      .catch(failed);
    return () => {
      current = false;
    };
  }, [formId]);

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
    setHooks((list) => [created, ...(list ?? [])]);
    setAdded({ url: created.url, secret: values.secret });
  };
  const changed = (next: Webhook) =>
    setHooks((list) => list?.map((hook) => (hook.id === next.id ? next : hook)));
  const removed = (gone: Webhook) => {
    setHooks((list) => list?.filter((hook) => hook.id !== gone.id));
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
      {error && hooks === undefined ? null : (
        <div class="webhooks__columns">
          <section aria-labelledby="hooks-title">
            <h2 id="hooks-title" ref={listTitle}>
              This form’s webhooks
            </h2>
            {hooks === undefined ? (
              <p role="status">Loading webhooks…</p>
            ) : hooks.length === 0 ? (
              <p class="empty">No webhooks yet. Add one to have this form’s events sent to your server.</p>
            ) : (
              <ul class="hooks">
                {hooks.map((hook) => (
                  <WebhookCard key={hook.id} webhook={hook} changed={changed} removed={() => removed(hook)} />
                ))}
              </ul>
            )}
          </section>
          <section class="webhooks__add" aria-labelledby="add-title">
            <h2 id="add-title">Add a webhook</h2>
            {added && (
              <Notice kind="success">
                <p>Webhook added: events now go to {added.url}.</p>
                {added.secret && (
                  <>
                    <p>
                      Its secret, shown this once (Intake keeps it encrypted and never returns it): copy it
                      into your receiver.
                    </p>
                    <p>
                      <code class="secret">{added.secret}</code>{' '}
                      <CopyButton text={added.secret} label="Copy secret" />
                    </p>
                  </>
                )}
              </Notice>
            )}
            <WebhookEditor id="new-hook" submitLabel="Add webhook" save={add} />
          </section>
        </div>
      )}
    </section>
  );
}
