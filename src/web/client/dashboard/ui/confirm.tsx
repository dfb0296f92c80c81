import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A button for what cannot be undone (a delete, a revoke): pressed, it asks the question in its
 * place, with the button that does it and "Keep it". Focus follows the person: to the button that
 * does it when asked, back to the first button when they keep it (either would otherwise be lost
 * with the button pressed). Buttons repeated on a page are told apart by `name` ("Delete key
 * …3f2a", "Delete: https://…"), their visible words staying short.
 */
export function ConfirmButton({
  label,
  name,
  question,
  confirmLabel,
  keepLabel = 'Keep it',
  small = false,
  onConfirm,
}: {
  /** The first button's words ("Delete"). */
  label: string;
  /** The first button's accessible name, when its words alone do not say which thing it is for. */
  name?: string;
  question: string;
  /** The words of the button that does it ("Delete key …3f2a"). */
  confirmLabel: string;
  keepLabel?: string;
  small?: boolean;
  /** Does it; the question closes once it has ended, whatever it answered (the view says what). */
  onConfirm: () => unknown;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    (asking ? confirm : first).current?.focus();
  }, [asking]);
  const ask = (next: boolean) => {
    moved.current = true;
    setAsking(next);
  };
  const size = small ? ' button--small' : '';
  const act = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      // done: focus is the view's to place (the thing may be gone), not the first button's
      moved.current = false;
      setAsking(false);
    }
  };
  if (!asking)
    return (
      <button
        ref={first}
        class={`button button--danger${size}`}
        type="button"
        aria-label={name}
        onClick={() => ask(true)}
      >
        {label}
      </button>
    );
  return (
    <span class="confirm">
      {question}{' '}
      <button
        ref={confirm}
        class={`button button--danger${size}`}
        type="button"
        disabled={busy}
        onClick={act}
      >
        {confirmLabel}
      </button>{' '}
      <button class={`button${size}`} type="button" onClick={() => ask(false)}>
        {keepLabel}
      </button>
    </span>
  );
}
