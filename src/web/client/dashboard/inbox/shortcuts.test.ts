// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type InboxMove, useInboxShortcuts, useShortcutsSetting } from './shortcuts.js';

/** The inbox's keys, listened for while `on`; every move they asked for. */
function mount(on: boolean) {
  const moves: InboxMove[] = [];
  const root = document.createElement('div');
  document.body.append(root);
  function Probe() {
    useInboxShortcuts(on, (move) => moves.push(move));
    return h('input', { id: 'typing' });
  }
  act(() => render(h(Probe, null), root));
  return moves;
}

const press = (key: string, init: KeyboardEventInit = {}, target: EventTarget = document.body) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));

afterEach(() => {
  document.body.replaceChildren();
  localStorage.clear();
});

describe('the inbox’s keys', () => {
  it('move with j and k, star with s, mark with u', () => {
    const moves = mount(true);
    for (const key of ['j', 'k', 's', 'u', 'x']) press(key);
    expect(moves).toEqual(['next', 'previous', 'star', 'read']);
  });

  it('leave alone what is typed into a control, keys held with a modifier, and a key held down', () => {
    const moves = mount(true);
    press('j', {}, document.getElementById('typing') ?? document.body);
    press('j', { ctrlKey: true });
    press('j', { altKey: true });
    press('j', { metaKey: true });
    press('j', { repeat: true });
    expect(moves).toEqual([]);
  });

  it('do nothing when turned off', () => {
    const moves = mount(false);
    press('j');
    expect(moves).toEqual([]);
  });
});

describe('the keys’ switch', () => {
  it('is on at first, and remembers being turned off (and on again) in this browser', () => {
    const seen: { current?: [boolean, (on: boolean) => void] } = {};
    const root = document.createElement('div');
    document.body.append(root);
    function Probe() {
      seen.current = useShortcutsSetting();
      return null;
    }
    act(() => render(h(Probe, null), root));
    expect(seen.current?.[0]).toBe(true);
    act(() => seen.current?.[1](false));
    expect(seen.current?.[0]).toBe(false);
    expect(localStorage.getItem('intake.inbox.keys-off')).toBe('1');
    act(() => seen.current?.[1](true));
    expect(localStorage.getItem('intake.inbox.keys-off')).toBeNull();
  });

  it('lasts for the page when storage is refused', () => {
    const refuse = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('private mode');
    });
    const seen: { current?: [boolean, (on: boolean) => void] } = {};
    const root = document.createElement('div');
    document.body.append(root);
    function Probe() {
      seen.current = useShortcutsSetting();
      return null;
    }
    act(() => render(h(Probe, null), root));
    act(() => seen.current?.[1](false));
    expect(seen.current?.[0]).toBe(false);
    refuse.mockRestore();
  });
});
