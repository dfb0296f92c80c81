// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmButton } from './confirm.js';

function mount(onConfirm: () => unknown) {
  const root = document.createElement('div');
  document.body.append(root);
  act(() =>
    render(
      h(ConfirmButton, {
        label: 'Delete',
        name: 'Delete key …3f2a',
        question: 'Delete it?',
        confirmLabel: 'Delete key …3f2a',
        onConfirm,
      }),
      root,
    ),
  );
  const button = (words: string) =>
    [...root.querySelectorAll('button')].find((candidate) => candidate.textContent === words);
  return { root, button };
}

afterEach(() => document.body.replaceChildren());

describe('ConfirmButton', () => {
  it('asks first, focusing the button that does it; keeping it puts focus back on the first button', () => {
    const onConfirm = vi.fn();
    const { root, button } = mount(onConfirm);
    expect(button('Delete')?.getAttribute('aria-label')).toBe('Delete key …3f2a');
    act(() => button('Delete')?.click());
    expect(root.textContent).toContain('Delete it?');
    expect(document.activeElement).toBe(button('Delete key …3f2a'));
    act(() => button('Keep it')?.click());
    expect(onConfirm).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(button('Delete'));
  });

  it('does it once confirmed, the button disabled meanwhile, then closes the question', async () => {
    let finish = () => {};
    const onConfirm = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { root, button } = mount(onConfirm);
    act(() => button('Delete')?.click());
    act(() => button('Delete key …3f2a')?.click());
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(button('Delete key …3f2a')?.disabled).toBe(true);
    await act(async () => finish());
    expect(root.textContent).not.toContain('Delete it?');
    expect(button('Delete')).toBeDefined();
  });
});
