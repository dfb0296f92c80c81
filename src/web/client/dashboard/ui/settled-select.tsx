import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';

/**
 * Keys that change a closed select's value at once in Chromium and Firefox on Linux and Windows,
 * each firing `change`: the arrows, the ends of the list, and type-ahead letters.
 */
const STEPPING = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);
const steps = (event: KeyboardEvent) =>
  // Alt+ArrowDown (and on macOS the arrows) opens the list instead: a pick there acts at once
  !event.altKey &&
  !event.metaKey &&
  !event.ctrlKey &&
  (STEPPING.has(event.key) || (event.key.length === 1 && event.key !== ' '));
/** Keys that open a closed select's list: what is then picked there is a new choice. */
const OPENING = new Set([' ', 'F4']);

export interface SettledSelectProps {
  id: string;
  disabled?: boolean;
  value: string;
  /** Called once per choice: at once for a pick from the list, on Enter or leaving for keys. */
  onCommit: (value: string) => void;
  children?: ComponentChildren;
}

/**
 * A select whose choice does something (changes a member's role, switches the workspace). A
 * keyboard user goes through a closed select's options with the arrows, and the browser fires
 * `change` at each one: acting on each would save every role passed over, or reload the
 * dashboard once per workspace (WCAG 3.2.2, "on input"). So a value reached by keys is held until
 * Enter or Tab (as Firefox once fired `change` for keys on leaving), Escape or the focus taken any
 * other way puts the value back, and a pick from the open list (mouse, touch, or Enter in it)
 * acts at once.
 */
export function SettledSelect({ id, value, onCommit, children, disabled }: SettledSelectProps) {
  const [held, setHeld] = useState<string>();
  // set by a stepping key's keydown, read by the `change` it fires (before its keyup)
  const stepping = useRef(false);
  const commit = (next: string) => {
    setHeld(undefined);
    if (next !== value) onCommit(next);
  };
  const hintId = `${id}-hint`;
  return (
    <>
      <select
        id={id}
        disabled={disabled}
        value={held ?? value}
        aria-describedby={held === undefined ? undefined : hintId}
        onKeyDown={(event) => {
          stepping.current = steps(event);
          // `change` comes in the same task as its key, or not at all; a keyup may go to an
          // opened list instead of the select, and must not leave the next pick held
          if (stepping.current)
            setTimeout(() => {
              stepping.current = false;
            }, 0);
          if ((OPENING.has(event.key) || (event.altKey && event.key === 'ArrowDown')) && held !== undefined) {
            // the list opens on the value the select had: a held step is dropped, not applied
            setHeld(undefined);
            event.currentTarget.value = value;
            return;
          }
          if (event.key === 'Enter' && held !== undefined) {
            event.preventDefault();
            commit(held);
          } else if (event.key === 'Tab' && held !== undefined) {
            // the focus moves on as it would (no preventDefault), the choice taken with it
            commit(held);
          } else if (event.key === 'Escape' && held !== undefined) {
            event.preventDefault();
            setHeld(undefined);
            event.currentTarget.value = value;
          }
        }}
        onKeyUp={() => {
          stepping.current = false;
        }}
        onPointerDown={() => {
          stepping.current = false;
        }}
        onChange={(event) => {
          const next = event.currentTarget.value;
          if (stepping.current) setHeld(next === value ? undefined : next);
          else commit(next);
        }}
        onBlur={() => {
          // Not a choice: the focus taken by a click elsewhere, or by the page itself (a refusal's
          // notice taking it made a held workspace switch before). The select shows its value again.
          if (held !== undefined) setHeld(undefined);
        }}
      >
        {children}
      </select>
      {held !== undefined && (
        <span id={hintId} class="hint settled-select__hint">
          Enter to apply, Esc to undo
        </span>
      )}
    </>
  );
}
