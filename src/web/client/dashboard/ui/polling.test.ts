// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useWhileShown } from './polling.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

function mount(look: () => Promise<unknown>, everyMs: number, active = true) {
  const root = document.createElement('div');
  document.body.append(root);
  function Probe() {
    useWhileShown(look, everyMs, active);
    return null;
  }
  act(() => render(h(Probe, null), root));
  return () => act(() => render(null, root));
}

describe('useWhileShown', () => {
  it('looks every so often while the tab is shown, and stops when the view is left', async () => {
    const look = vi.fn(async () => undefined);
    const leave = mount(look, 1000);
    await vi.advanceTimersByTimeAsync(3000);
    expect(look).toHaveBeenCalledTimes(3);
    leave();
    await vi.advanceTimersByTimeAsync(3000);
    expect(look).toHaveBeenCalledTimes(3);
  });

  it('never looks twice at once: a slow look is not piled on', async () => {
    let finish = () => {};
    const look = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    mount(look, 1000);
    await vi.advanceTimersByTimeAsync(5000);
    expect(look).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(1000);
    expect(look).toHaveBeenCalledTimes(2);
  });

  it('does not look while inactive', async () => {
    const look = vi.fn(async () => undefined);
    mount(look, 1000, false);
    await vi.advanceTimersByTimeAsync(3000);
    expect(look).not.toHaveBeenCalled();
  });
});
