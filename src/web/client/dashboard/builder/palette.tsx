import { useLayoutEffect, useRef } from 'preact/hooks';
import type { FieldType } from '../../../../shared/form.js';
import { FIELD_KINDS } from './field-model.js';

/**
 * The "Add field" palette: a modal dialog listing every field type by its plain name with a
 * line on what it is for, so the type is chosen before the field exists. The native <dialog>
 * keeps focus inside it and closes on Esc; the up and down arrows go from type to type too.
 * Whoever opens it says where focus goes afterwards (`onClose` on a cancel, `onPick` on a choice).
 */
export function TypePalette({
  open,
  onPick,
  onClose,
}: {
  open: boolean;
  onPick: (type: FieldType) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  /** Set while a pick closes the dialog: its close event is then no cancel. */
  const picked = useRef(false);
  // closed at once, before the picker moves focus: the dialog's own close puts focus back on
  // its opener, which would otherwise come after (an effect runs a frame later)
  const pick = (type: FieldType) => {
    picked.current = true;
    dialog.current?.close();
    onPick(type);
  };
  const cancelled = () => {
    if (picked.current) picked.current = false;
    else onClose();
  };
  // opened as soon as it is drawn (not a frame later): a key pressed right after "Add field" lands in it
  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      element.querySelector<HTMLButtonElement>('.palette__type')?.focus();
    } else if (!open && element.open) element.close();
  }, [open]);

  /** Up and down (and Home, End) go through the types, as in a menu; Tab works as ever. */
  const onKeyDown = (event: KeyboardEvent) => {
    const types = [...(dialog.current?.querySelectorAll<HTMLButtonElement>('.palette__type') ?? [])];
    const at = types.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const to =
      event.key === 'ArrowDown'
        ? (at + 1) % types.length
        : event.key === 'ArrowUp'
          ? (at - 1 + types.length) % types.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? types.length - 1
              : -1;
    if (to < 0) return;
    event.preventDefault();
    types[to]?.focus();
  };

  return (
    <dialog
      ref={dialog}
      class="palette"
      aria-labelledby="palette-heading"
      aria-describedby="palette-intro"
      onClose={cancelled}
      onKeyDown={onKeyDown}
    >
      <h2 id="palette-heading">Add a field</h2>
      <p id="palette-intro" class="muted">
        What should the question ask for? You can change the type later.
      </p>
      <ul class="palette__list">
        {FIELD_KINDS.map((kind) => (
          // the description sits beside the button, not in it: the button's name is the type's
          // name alone (what a person says to pick it); the whole card is its to click (CSS)
          <li key={kind.type} class="palette__item">
            <button
              type="button"
              class="palette__type"
              aria-describedby={`palette-${kind.type}-about`}
              onClick={() => pick(kind.type)}
            >
              {kind.name}
            </button>
            <p id={`palette-${kind.type}-about`} class="palette__about">
              {kind.description}
            </p>
          </li>
        ))}
      </ul>
      <p class="actions">
        <button type="button" class="button" onClick={() => dialog.current?.close()}>
          Cancel
        </button>
      </p>
    </dialog>
  );
}
