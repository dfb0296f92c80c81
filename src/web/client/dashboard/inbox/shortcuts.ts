import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * The inbox's keys for the common moves, as mail clients have them: j and k (next, previous),
 * s (star), u (read or unread). They do nothing while a person types into a control, with a
 * modifier held (the browser's and the screen reader's own keys stay theirs), or when held
 * down (a held j would open, and so mark read, every response it passed). A person whose
 * speech input or habits collide with single letters turns them off (WCAG 2.1.4); the choice is
 * remembered in this browser.
 */

export type InboxMove = 'next' | 'previous' | 'star' | 'read';

export const SHORTCUTS: ReadonlyArray<{ key: string; move: InboxMove; words: string }> = [
  { key: 'j', move: 'next', words: 'Open the next response' },
  { key: 'k', move: 'previous', words: 'Open the previous response' },
  { key: 's', move: 'star', words: 'Star or unstar the open response' },
  { key: 'u', move: 'read', words: 'Mark the open response read or unread' },
];

const TYPING = /^(?:INPUT|TEXTAREA|SELECT)$/;
const SWITCHED_OFF = 'intake.inbox.keys-off';

/** Whether the keys are on, and a way to turn them off and on again (remembered). */
export function useShortcutsSetting(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => {
    try {
      return localStorage.getItem(SWITCHED_OFF) !== '1';
    } catch {
      return true;
    }
  });
  const set = (next: boolean) => {
    setOn(next);
    try {
      if (next) localStorage.removeItem(SWITCHED_OFF);
      else localStorage.setItem(SWITCHED_OFF, '1');
    } catch {
      // storage refused (private mode): the choice lasts for this page only
    }
  };
  return [on, set];
}

export function useInboxShortcuts(on: boolean, handle: (move: InboxMove) => void): void {
  // the latest handler, without adding and removing the listener on every render
  const latest = useRef(handle);
  latest.current = handle;
  useEffect(() => {
    if (!on) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.isComposing) return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const { target } = event;
      if (target instanceof HTMLElement && (TYPING.test(target.tagName) || target.isContentEditable)) return;
      const shortcut = SHORTCUTS.find((entry) => entry.key === event.key);
      if (!shortcut) return;
      event.preventDefault();
      latest.current(shortcut.move);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [on]);
}
