// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.js';
import { forgetCached, type Resource, setCached, useResource } from './resource.js';

/** A load whose answers the test hands out one by one, counting the calls. */
function deferred<T>() {
  const waiting: Array<{ resolve: (value: T) => void; reject: (error: unknown) => void }> = [];
  const load = () =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ resolve, reject });
    });
  return {
    load,
    calls: () => waiting.length,
    answer: async (value: T, which = waiting.length - 1) => act(async () => waiting[which]?.resolve(value)),
    fail: async (error: unknown, which = waiting.length - 1) =>
      act(async () => waiting[which]?.reject(error)),
  };
}

/** Shows the resource of `key` in a fresh element; what the hook handed back last. */
function mount<T>(key: string | undefined, load: () => Promise<T>, options?: { fresh?: boolean }) {
  const seen: { current?: Resource<T> } = {};
  const root = document.createElement('div');
  document.body.append(root);
  function Probe() {
    seen.current = useResource(key, load, options);
    return null;
  }
  act(() => render(h(Probe, null), root));
  return { seen, unmount: () => act(() => render(null, root)) };
}

afterEach(() => {
  forgetCached();
  document.body.replaceChildren();
});

describe('useResource', () => {
  it('reads when shown: loading, then the data', async () => {
    const source = deferred<string[]>();
    const { seen } = mount('keys:development', source.load);
    expect(seen.current).toMatchObject({ data: undefined, loading: true });
    await source.answer(['a']);
    expect(seen.current).toMatchObject({ data: ['a'], loading: false, error: undefined });
  });

  it('shares one read between views of the same key, and shows the cache at once to the next one', async () => {
    const source = deferred<string[]>();
    const first = mount('keys:development', source.load);
    const second = mount('keys:development', source.load);
    expect(source.calls()).toBe(1);
    await source.answer(['a']);
    expect(second.seen.current?.data).toEqual(['a']);
    first.unmount();
    second.unmount();
    // a later visit: the cached list at once, read again behind it
    const third = mount('keys:development', source.load);
    expect(third.seen.current).toMatchObject({ data: ['a'], loading: true });
    expect(source.calls()).toBe(2);
    await source.answer(['a', 'b']);
    expect(third.seen.current?.data).toEqual(['a', 'b']);
  });

  it('keeps the same object when the answer did not change (views depending on it are not run again)', async () => {
    const source = deferred<{ title: string }>();
    const { seen } = mount('form:frm_1', source.load);
    await source.answer({ title: 'Feedback' });
    const before = seen.current?.data;
    act(() => {
      void seen.current?.reload();
    });
    // a read under way shows (a view polling on its end sees it end, even when nothing changed)
    expect(seen.current?.loading).toBe(true);
    await source.answer({ title: 'Feedback' });
    expect(seen.current?.data).toBe(before);
    expect(seen.current?.loading).toBe(false);
  });

  it('keeps the failure as an ApiError, and the data read before it', async () => {
    const source = deferred<string[]>();
    const { seen } = mount('keys:development', source.load);
    await source.answer(['a']);
    void seen.current?.reload();
    await source.fail(new ApiError(503, 'service_unavailable', 'Try again later.'));
    expect(seen.current?.data).toEqual(['a']);
    expect(seen.current?.error).toMatchObject({ status: 503, message: 'Try again later.' });
  });

  it('shows a change made with `set` in every view of the key, and drops a read that started before it', async () => {
    const source = deferred<string[]>();
    const first = mount('keys:development', source.load);
    const second = mount('keys:development', source.load);
    act(() => first.seen.current?.set(['mine']));
    expect(second.seen.current?.data).toEqual(['mine']);
    await source.answer(['stale']);
    expect(second.seen.current?.data).toEqual(['mine']);
  });

  it('reads the new key when the key changes; none while it is undefined', async () => {
    const source = deferred<string>();
    const nothing = mount(undefined, source.load);
    expect(source.calls()).toBe(0);
    expect(nothing.seen.current).toMatchObject({ data: undefined, loading: false });
    setCached('keys:production', 'cached');
    const { seen } = mount('keys:production', source.load);
    expect(seen.current?.data).toBe('cached');
  });

  it('fresh: never shows what the cache holds, only its own read', async () => {
    setCached('form:frm_1', { version: 1 });
    const source = deferred<{ version: number }>();
    const { seen } = mount('form:frm_1', source.load, { fresh: true });
    expect(seen.current?.data).toBeUndefined();
    await source.answer({ version: 2 });
    expect(seen.current?.data).toEqual({ version: 2 });
  });

  it('forgets by prefix (after a sign-out, all of it): nothing is shown to the next person', async () => {
    setCached('keys:development', ['a']);
    setCached('forms:development:current', ['f']);
    const never = () => new Promise<string[]>(() => undefined);
    const keys = mount('keys:development', never);
    const forms = mount('forms:development:current', never);
    act(() => forgetCached('keys:'));
    expect(keys.seen.current?.data).toBeUndefined();
    expect(forms.seen.current?.data).toEqual(['f']);
    act(() => forgetCached());
    expect(forms.seen.current?.data).toBeUndefined();
  });

  it('keeps the one key asked for (a switch of workspace keeps the person’s list of them)', async () => {
    setCached('workspaces', ['wsp_a', 'wsp_b']);
    setCached('forms:development:current', ['f']);
    const never = () => new Promise<string[]>(() => undefined);
    const workspaces = mount('workspaces', never);
    const forms = mount('forms:development:current', never);
    act(() => forgetCached('', { keep: 'workspaces' }));
    expect(forms.seen.current?.data).toBeUndefined();
    expect(workspaces.seen.current?.data).toEqual(['wsp_a', 'wsp_b']);
  });
});
