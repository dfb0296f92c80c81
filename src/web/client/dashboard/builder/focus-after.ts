import { useLayoutEffect, useRef } from 'preact/hooks';

/**
 * Focus moved to an element a change is about to draw (a new option's words, a moved field's
 * button): asked for in the event handler, done in the very render that draws it (a layout
 * effect), before the next key press is read, so typing at once after Enter lands there.
 */
export function useFocusAfterRender(): (id: string, select?: boolean) => void {
  const wanted = useRef<{ id: string; select: boolean } | undefined>(undefined);
  useLayoutEffect(() => {
    const target = wanted.current;
    if (!target) return;
    const element = document.getElementById(target.id);
    if (!element) return;
    wanted.current = undefined;
    element.focus();
    if (target.select && element instanceof HTMLInputElement) element.select();
  });
  return (id, select = false) => {
    wanted.current = { id, select };
  };
}
