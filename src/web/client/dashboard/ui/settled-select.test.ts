// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettledSelect } from './settled-select.js';

function mount(value = 'viewer') {
  const onCommit = vi.fn();
  const root = document.createElement('div');
  document.body.append(root);
  act(() =>
    render(
      h(
        SettledSelect,
        { id: 'role', value, onCommit },
        ['viewer', 'editor', 'admin'].map((each) => h('option', { key: each, value: each }, each)),
      ),
      root,
    ),
  );
  const select = root.querySelector('select') as HTMLSelectElement;
  select.focus();
  const key = (name: string, type: 'keydown' | 'keyup' = 'keydown') =>
    act(() => {
      select.dispatchEvent(new KeyboardEvent(type, { key: name, bubbles: true, cancelable: true }));
    });
  /** What a browser does for a stepping key on a closed select: keydown, the value and `change`, keyup. */
  const step = (name: string, to: string) => {
    key(name);
    act(() => {
      select.value = to;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    key(name, 'keyup');
  };
  /** A pick from the open list, or a test's selectOption: `change` with no stepping key before it. */
  const pick = (to: string) =>
    act(() => {
      select.value = to;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
  const hint = () => root.querySelector('.settled-select__hint')?.textContent ?? null;
  return { select, onCommit, key, step, pick, hint };
}

afterEach(() => document.body.replaceChildren());

describe('SettledSelect', () => {
  it('acts at once on a pick from the list', () => {
    const { onCommit, pick, hint } = mount();
    pick('admin');
    expect(onCommit).toHaveBeenCalledExactlyOnceWith('admin');
    expect(hint()).toBeNull();
  });

  it('holds values reached by the arrows, and acts once on Enter with the last', () => {
    const { select, onCommit, step, key, hint } = mount();
    step('ArrowDown', 'editor');
    step('ArrowDown', 'admin');
    expect(onCommit).not.toHaveBeenCalled();
    expect(select.value).toBe('admin');
    expect(hint()).toBe('Enter to apply, Esc to undo');
    expect(select.getAttribute('aria-describedby')).toBe('role-hint');
    key('Enter');
    expect(onCommit).toHaveBeenCalledExactlyOnceWith('admin');
    expect(hint()).toBeNull();
  });

  it('acts on Tab with a held value; the focus taken otherwise puts the value back', () => {
    const { select, onCommit, step, key } = mount();
    key('Tab');
    expect(onCommit).not.toHaveBeenCalled();
    step('End', 'admin');
    // a click elsewhere, or the page moving the focus (a notice): no choice made
    act(() => {
      select.dispatchEvent(new FocusEvent('blur'));
    });
    expect(onCommit).not.toHaveBeenCalled();
    expect(select.value).toBe('viewer');
    step('End', 'admin');
    key('Tab');
    expect(onCommit).toHaveBeenCalledExactlyOnceWith('admin');
  });

  it('Escape puts the value back and acts on nothing, on leaving either', () => {
    const { select, onCommit, step, key, hint } = mount();
    step('ArrowDown', 'editor');
    key('Escape');
    expect(select.value).toBe('viewer');
    expect(hint()).toBeNull();
    act(() => {
      select.dispatchEvent(new FocusEvent('blur'));
    });
    expect(onCommit).not.toHaveBeenCalled();
  });

  it('a pick from a list opened with Alt+ArrowDown acts at once, even when no keyup reaches the select', () => {
    const { onCommit, key, pick } = mount();
    // the keyup goes to the opened list, not to the select
    act(() => {
      document
        .querySelector('select')
        ?.dispatchEvent(
          new KeyboardEvent('keydown', { key: 'ArrowDown', altKey: true, bubbles: true, cancelable: true }),
        );
    });
    pick('admin');
    expect(onCommit).toHaveBeenCalledExactlyOnceWith('admin');
    key('Tab');
    expect(onCommit).toHaveBeenCalledTimes(1);
  });

  it('a step whose keyup never comes leaves no later pick held (the flag lasts one task)', async () => {
    const { onCommit, key, pick } = mount();
    key('ArrowDown'); // no change follows (the last option already), no keyup reaches the select
    await new Promise((resolve) => setTimeout(resolve, 0));
    pick('editor');
    expect(onCommit).toHaveBeenCalledExactlyOnceWith('editor');
  });

  it('a type-ahead letter steps like an arrow; back to the value it had, nothing is held', () => {
    const { onCommit, step, key, hint } = mount();
    step('a', 'admin');
    expect(hint()).not.toBeNull();
    step('v', 'viewer');
    expect(hint()).toBeNull();
    key('Enter');
    expect(onCommit).not.toHaveBeenCalled();
  });
});
