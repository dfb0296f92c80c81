import { useCallback, useEffect, useState } from 'preact/hooks';
import { type ApiError, api, apiErrorOf, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { may } from '../teams/roles.js';
import { Notice } from '../ui/controls.js';
import { useResource } from '../ui/resource.js';
import {
  type Delivery,
  deliveryName,
  nextLook,
  outcome,
  POLL_MS,
  STATUS_WORDS,
  time,
  type Webhook,
  when,
} from './model.js';

/**
 * A webhook's deliveries (API.md §7), newest first, each with its attempts: asked for again on
 * "Refresh", after a test or a redelivery, and by themselves while one is on its way (never
 * while the tab is hidden, never once the view is gone).
 */

/** The most recent deliveries shown. */
const SHOWN = 10;

export interface Deliveries {
  list: Delivery[] | undefined;
  /** Older deliveries exist beyond those shown. */
  more: boolean;
  error: ApiError | undefined;
  refresh: () => Promise<void>;
  /** A delivery just queued (a test, a redelivery): shown at once, then followed. */
  queued: (delivery: Delivery) => void;
}

export function useDeliveries(webhookId: string): Deliveries {
  // the newest page, under the webhook's key: a change (`queued`) drops a read that started before it
  const page = useResource(`deliveries:${webhookId}`, () =>
    ok(
      api.GET('/webhooks/{id}/deliveries', { params: { path: { id: webhookId }, query: { limit: SHOWN } } }),
    ),
  );
  const { data, error, loading, reload: refresh, set } = page;
  const list = data?.data;

  // while a delivery is pending, look again once its next attempt is due, after each look that
  // ended (a failed look stops this: "Refresh" tries again)
  useEffect(() => {
    if (!list || loading || error) return;
    const wait = nextLook(list, Date.now());
    if (wait === undefined) return;
    let timer: ReturnType<typeof setTimeout>;
    const look = () => {
      if (document.visibilityState === 'visible') void refresh();
      else timer = setTimeout(look, POLL_MS);
    };
    timer = setTimeout(look, wait);
    return () => clearTimeout(timer);
  }, [list, loading, error, refresh]);

  const queued = useCallback(
    (delivery: Delivery) =>
      set((current) => ({
        data: [delivery, ...(current?.data ?? []).filter((item) => item.id !== delivery.id)],
        nextCursor: current?.nextCursor ?? null,
      })),
    [set],
  );
  return { list, more: Boolean(data?.nextCursor), error, refresh, queued };
}

export function DeliveryList({ webhook, deliveries }: { webhook: Webhook; deliveries: Deliveries }) {
  // a viewer reads deliveries; sending one again is managing the webhook (API.md §14)
  const manages = may(useSession().role, 'manageForms');
  const { list, more, error, refresh, queued } = deliveries;
  const [refused, setRefused] = useState<ApiError>();
  const titleId = `hook-${webhook.id}-deliveries`;

  const redeliver = async (delivery: Delivery) => {
    setRefused(undefined);
    try {
      queued(
        await ok(
          api.POST('/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
            params: { path: { id: webhook.id, deliveryId: delivery.id } },
          }),
        ),
      );
    } catch (caught) {
      setRefused(apiErrorOf(caught));
    }
  };

  const latest = list?.[0];
  return (
    <section class="deliveries" aria-labelledby={titleId}>
      <div class="deliveries__head">
        <h4 id={titleId}>Deliveries</h4>
        <button
          class="button button--small"
          type="button"
          aria-label={`Refresh deliveries: ${webhook.url}`}
          onClick={() => {
            setRefused(undefined);
            void refresh();
          }}
        >
          Refresh
        </button>
      </div>
      {/* what happens to the newest delivery is read out as it changes */}
      <p class="visually-hidden" role="status">
        {latest ? `Latest delivery: ${deliveryName(latest)}, ${STATUS_WORDS[latest.status]}` : ''}
      </p>
      {/* a refused redelivery is the person's own act: an alert that takes focus; a look that
          failed (by itself, maybe while they type elsewhere) is said here without moving them */}
      {refused ? (
        <Notice kind="error" announce={refused}>
          {refused.message}
        </Notice>
      ) : (
        error && <p class="error">The deliveries could not be read: {error.message} Refresh to try again.</p>
      )}
      {list === undefined ? (
        !error && <p class="muted">Loading deliveries…</p>
      ) : list.length === 0 ? (
        <p class="muted">
          {webhook.enabled
            ? 'No deliveries yet: the next event sends one, and “Send test” sends one now.'
            : 'No deliveries yet.'}
        </p>
      ) : (
        <ol class="deliveries__list">
          {list.map((delivery) => {
            const name = deliveryName(delivery);
            return (
              <li key={delivery.id} class="delivery">
                <p class="delivery__head">
                  <strong class="delivery__event">{delivery.event}</strong>
                  <span class={`badge badge--${delivery.status}`}>{STATUS_WORDS[delivery.status]}</span>
                  <span class="muted">{when(delivery.createdAt)}</span>
                </p>
                <p class="delivery__about">
                  {delivery.status === 'pending' &&
                    (delivery.nextAttemptAt && delivery.attempts.length > 0
                      ? `Next attempt at ${time(delivery.nextAttemptAt)}. `
                      : 'On its way. ')}
                  {delivery.redeliveryOf && 'Sent again by request. '}
                  webhook-id <code>{delivery.eventId}</code>
                </p>
                {delivery.attempts.length > 0 && (
                  <div class="table-wrap">
                    <table class="attempts">
                      <caption class="visually-hidden">Attempts of {name}</caption>
                      <thead>
                        <tr>
                          <th scope="col">
                            <span aria-hidden="true">#</span>
                            <span class="visually-hidden">Attempt</span>
                          </th>
                          <th scope="col">At</th>
                          <th scope="col">Answer</th>
                          <th scope="col">Took</th>
                        </tr>
                      </thead>
                      <tbody>
                        {delivery.attempts.map((attempt) => (
                          <tr key={attempt.attempt}>
                            <td>{attempt.attempt}</td>
                            <td class="attempts__fixed">{time(attempt.attemptedAt)}</td>
                            <td class="attempts__answer">{outcome(attempt)}</td>
                            <td class="attempts__fixed">{attempt.durationMs} ms</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
                {webhook.enabled && manages && (
                  <p class="actions">
                    <button
                      class="button button--small"
                      type="button"
                      aria-label={`Redeliver: ${name} to ${webhook.url}`}
                      onClick={() => redeliver(delivery)}
                    >
                      Redeliver
                    </button>
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {more && <p class="muted">The {SHOWN} most recent deliveries are shown.</p>}
    </section>
  );
}
