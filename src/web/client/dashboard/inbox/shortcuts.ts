import { useEffect, useRef } from 'preact/hooks';

/**
 * The inbox's keys for the common moves, as mail clients have them: j and k (next, previous),
 * s (star), u (read or unread). They do nothing while a person types into a control, or with a
 * modifier held (the browser's and the screen reader's own keys stay theirs).
 */

export type InboxMove = 'next' | 'previous' | 'star' | 'read';

export const SHORTCUTS: ReadonlyArray<{ key: string; move: InboxMove; words: string }> = [
  { key: 'j', move: 'next', words: 'Open the next response' },
  { key: 'k', move: 'previous', words: 'Open the previous response' },
  { key: 's', move: 'star', words: 'Star or unstar the open response' },
  { key: 'u', move: 'read', words: 'Mark the open response read or unread' },
];

const TYPING = /^(?:INPUT|TEXTAREA|SELECT)$/;

export function useInboxShortcuts(handle: (move: InboxMove) => void): void {
  // the latest handler, without adding and removing the listener on every render
  const latest = useRef(handle);
  latest.current = handle;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.isComposing)
        return;
      const target = event.target as HTMLElement | null;
      if (target && (TYPING.test(target.tagName) || target.isContentEditable)) return;
      const shortcut = SHORTCUTS.find((entry) => entry.key === event.key);
      if (!shortcut) return;
      event.preventDefault();
      latest.current(shortcut.move);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
