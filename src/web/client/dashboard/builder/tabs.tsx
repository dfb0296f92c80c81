import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * The builder's five tabs, Build, Design, Settings, Languages and Share, as ARIA tabs (APG's tabs pattern
 * with automatic activation): one Tab stop for the list, the arrows (and Home, End) go from
 * tab to tab and show its panel. Every panel stays in the page, hidden when not chosen, so what
 * is typed in one is never lost in another. The preview stays beside Build, Design and Languages; Settings
 * and Share take the whole width. The tab chosen is in the address's hash (#design…), so a
 * reload keeps it and a link (or `location.hash = 'share'` after a first publish) opens one.
 */

export const TABS = [
  { id: 'build', label: 'Build', preview: true },
  { id: 'design', label: 'Design', preview: true },
  { id: 'settings', label: 'Settings', preview: false },
  { id: 'languages', label: 'Languages', preview: true },
  { id: 'share', label: 'Share', preview: false },
] as const;
export type TabId = (typeof TABS)[number]['id'];

const tabOfHash = (): TabId | undefined => TABS.find((tab) => `#${tab.id}` === location.hash)?.id;

/** The tab that holds the control an API error names (`fields[2].label`, `ui.accentColor`…). */
export function tabOfMember(member: string): TabId {
  if (/^(title|fields|logic)\b/.test(member) || member === 'ui.description') return 'build';
  if (/^translations\b/.test(member)) return 'languages';
  if (/^ui\.(layout|theme|progress|accentColor|submitLabel|successMessage)$/.test(member)) return 'design';
  return 'settings';
}

export function BuilderTabs({
  panels,
  preview,
  errorMembers,
}: {
  panels: Record<TabId, ComponentChildren>;
  preview: ComponentChildren;
  /** The members the last refusal named: when none is in the tab shown, the first one's tab is shown. */
  errorMembers: readonly string[];
}) {
  const [selected, setSelected] = useState<TabId>(() => tabOfHash() ?? 'build');
  const select = (tab: TabId) => {
    setSelected(tab);
    history.replaceState(history.state, '', `${location.pathname}${location.search}#${tab}`);
  };
  useEffect(() => {
    const follow = () => {
      const tab = tabOfHash();
      if (tab) setSelected(tab);
    };
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  const errorKey = errorMembers.join('\n');
  // a new refusal (its members joined), not every render, decides
  useEffect(() => {
    const tabs = errorMembers.map(tabOfMember);
    const [first] = tabs;
    if (first && !tabs.includes(selected)) setSelected(first);
  }, [errorKey]);

  const onKeyDown = (event: KeyboardEvent) => {
    const at = TABS.findIndex((tab) => tab.id === selected);
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % TABS.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + TABS.length) % TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? TABS.length - 1
              : -1;
    const tab = TABS[to];
    if (!tab) return;
    event.preventDefault();
    select(tab.id);
    document.getElementById(`builder-tab-${tab.id}`)?.focus();
  };

  const withPreview = TABS.find((tab) => tab.id === selected)?.preview === true;
  return (
    <>
      <div class="tabs" role="tablist" aria-label="Parts of the builder" onKeyDown={onKeyDown}>
        {TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`builder-tab-${tab.id}`}
            class="tabs__tab"
            aria-selected={tab.id === selected}
            aria-controls={`builder-panel-${tab.id}`}
            tabIndex={tab.id === selected ? 0 : -1}
            onClick={() => select(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div class={`builder__columns${withPreview ? '' : ' builder__columns--whole'}`}>
        <div class="builder__editor">
          {TABS.map((tab) => (
            <div
              key={tab.id}
              role="tabpanel"
              id={`builder-panel-${tab.id}`}
              aria-labelledby={`builder-tab-${tab.id}`}
              hidden={tab.id !== selected}
            >
              {panels[tab.id]}
            </div>
          ))}
        </div>
        <aside class="builder__preview" aria-label="Preview" hidden={!withPreview}>
          <h2>Preview</h2>
          {preview}
        </aside>
      </div>
    </>
  );
}
