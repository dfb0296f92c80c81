// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.js';
import { type Action, useAction } from './action.js';

function mount() {
  const seen: { current?: Action } = {};
  const root = document.createElement('div');
  document.body.append(root);
  function Probe() {
    seen.current = useAction();
    return null;
  }
  act(() => render(h(Probe, null), root));
  return seen;
}

afterEach(() => document.body.replaceChildren());

describe('useAction', () => {
  it('is busy while the work runs, and says it succeeded', async () => {
    const action = mount();
    let finish = () => {};
    let result: Promise<boolean> | undefined;
    act(() => {
      result = action.current?.run(() => new Promise<void>((resolve) => (finish = resolve)));
    });
    expect(action.current?.busy).toBe(true);
    await act(async () => finish());
    await expect(result).resolves.toBe(true);
    expect(action.current).toMatchObject({ busy: false, error: undefined });
  });

  it('keeps a refusal as its error (anything else thrown becomes one), forgotten when run again', async () => {
    const action = mount();
    let ok: boolean | undefined;
    await act(async () => {
      ok = await action.current?.run(async () => {
        throw new ApiError(409, 'conflict', 'It is in use.');
      });
    });
    expect(ok).toBe(false);
    expect(action.current?.error).toMatchObject({ status: 409, message: 'It is in use.' });
    await act(async () => {
      await action.current?.run(async () => {
        throw new TypeError('a bug');
      });
    });
    expect(action.current?.error).toMatchObject({ status: 0, message: 'TypeError: a bug' });
    await act(async () => {
      await action.current?.run(async () => undefined);
    });
    expect(action.current?.error).toBeUndefined();
  });

  it('runs once at a time: a second press while busy does nothing', async () => {
    const action = mount();
    let runs = 0;
    let finish = () => {};
    const work = () => {
      runs++;
      return new Promise<void>((resolve) => (finish = resolve));
    };
    let second: Promise<boolean> | undefined;
    act(() => {
      void action.current?.run(work);
      second = action.current?.run(work);
    });
    await expect(second).resolves.toBe(false);
    await act(async () => finish());
    expect(runs).toBe(1);
  });

  it('shows a problem found before sending as its own', () => {
    const action = mount();
    act(() => action.current?.fail(new ApiError(400, undefined, 'Fill it in.')));
    expect(action.current?.error?.message).toBe('Fill it in.');
  });
});
