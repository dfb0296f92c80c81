import { type ComponentType, h } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * A part of a view loaded when it is first drawn, in a chunk of its own (API.md §11.3's budget
 * counts each lazily loaded chunk): "Loading…" until then. Not preact-iso's `lazy`, which
 * suspends up to the router and would blank the whole view while a tab's code arrives.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  return function LazyPart(props: P) {
    // a flag, not the component: useState would call a function it is handed
    const [, setReady] = useState(loaded !== undefined);
    useEffect(() => {
      if (loaded) return;
      let current = true;
      loading ??= load();
      loading.then((component) => {
        loaded = component;
        if (current) setReady(true);
      });
      return () => {
        current = false;
      };
    }, []);
    return loaded ? h(loaded, props) : h('p', { class: 'muted', role: 'status' }, 'Loading…');
  };
}
