import { ConfirmButton } from '../ui/confirm.js';
import { Notice } from '../ui/controls.js';
import type { Draft } from './draft.js';
import type { SaveFlow } from './save-flow.js';

/**
 * The builder's sticky bar (builder.css `.save-bar`): where the form stands ("Unsaved changes",
 * "Unpublished changes", "Published") and what to do about it, in reach wherever the page is
 * scrolled. A published form: Save (to its working copy), "Publish changes", Discard. Any other:
 * Save and Publish.
 */
export function SaveBar({
  flow,
  draft,
  onDiscarded,
}: {
  flow: SaveFlow;
  draft: Draft;
  /** The edits are gone: the builder starts again from the published form. */
  onDiscarded: () => void;
}) {
  const { form, busy, mode } = flow;
  if (!form) return null;
  const unsaved = flow.unsaved(draft);
  const pending = flow.hasCopy || unsaved;
  const state = unsaved
    ? { kind: 'unsaved', words: 'Unsaved changes' }
    : flow.hasCopy
      ? { kind: 'pending', words: 'Unpublished changes' }
      : mode === 'copy'
        ? { kind: 'saved', words: 'Published' }
        : { kind: 'saved', words: 'All changes saved' };
  return (
    <section class="save-bar" aria-label="Save and publish">
      <p class={`save-bar__state save-bar__state--${state.kind}`} role="status">
        <span class="save-bar__dot" aria-hidden="true" />
        {state.words}
      </p>
      <div class="save-bar__actions">
        <button
          // a published form's main step is Publish changes; a draft's is Save
          class={`button${mode === 'form' ? ' button--primary' : ''}`}
          type="button"
          disabled={busy}
          aria-disabled={!unsaved}
          onClick={() => unsaved && flow.save(draft)}
        >
          Save
        </button>
        {mode === 'copy' ? (
          <>
            <button
              class="button button--primary"
              type="button"
              disabled={busy || !pending}
              onClick={() => flow.publishChanges(draft)}
            >
              Publish changes
            </button>
            {pending && (
              <ConfirmButton
                label="Discard"
                name="Discard unpublished changes"
                question="Drop every change not yet published?"
                confirmLabel="Discard changes"
                keepLabel="Keep them"
                onConfirm={async () => {
                  if (await flow.discard()) onDiscarded();
                }}
              />
            )}
          </>
        ) : (
          form.status !== 'live' && (
            <button
              class="button"
              type="button"
              disabled={busy}
              onClick={() => flow.setStatus(draft, 'live')}
            >
              Publish
            </button>
          )
        )}
      </div>
    </section>
  );
}

/** What the last save said: a 412 with "… anyway", the refusal with every problem, or the news. */
export function SaveNotices({ flow, draft }: { flow: SaveFlow; draft: Draft }) {
  const { interrupted, error, news, busy } = flow;
  const again = () => {
    if (!interrupted) return;
    if (interrupted.kind === 'publish') void flow.publishChanges(draft, true);
    else if (interrupted.kind === 'status') void flow.setStatus(draft, interrupted.status, true);
    else void flow.save(draft, true);
  };
  return (
    <>
      {interrupted && (
        <Notice kind="error" announce={interrupted}>
          <p>
            Someone saved this form since you opened it. Nothing you typed is lost:{' '}
            {interrupted.kind === 'publish' ? 'publish' : 'save'} anyway to replace their version with yours,
            or reload to see theirs (and lose your changes).
          </p>
          <p class="actions">
            <button class="button button--primary" type="button" disabled={busy} onClick={again}>
              {interrupted.kind === 'publish' ? 'Publish anyway' : 'Save anyway'}
            </button>
            <button class="button" type="button" onClick={() => location.reload()}>
              Reload their version
            </button>
          </p>
        </Notice>
      )}
      {error && (
        <Notice kind="error" announce={error}>
          <p>{error.message}</p>
          {error.errors.length > 0 && (
            <ul>
              {error.errors.map((problem) => (
                <li key={problem.field}>
                  {problem.field}: {problem.message}
                </li>
              ))}
            </ul>
          )}
        </Notice>
      )}
      {news && <Notice kind="success">{news}</Notice>}
    </>
  );
}
