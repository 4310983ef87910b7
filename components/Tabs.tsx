import type { ComponentChildren } from 'preact';
import { t } from '@/lib/i18n';

/** One tab: `id` is used for element ids; `label` is its accessible name. */
export interface TabSpec<T extends string> {
  id: T;
  label: string;
}

/**
 * WAI-ARIA tabs: a tablist whose buttons move with ←/→/Home/End, and the active panel. Only the active tab is in the
 * tab order.
 */
export function Tabs<T extends string>(props: { tabs: TabSpec<T>[]; active: T; onChange: (id: T) => void; children: ComponentChildren }) {
  const index = props.tabs.findIndex((t) => t.id === props.active);
  const move = (to: number) => {
    const tab = props.tabs[(to + props.tabs.length) % props.tabs.length]!;
    props.onChange(tab.id);
    requestAnimationFrame(() => document.getElementById(`tab-${tab.id}`)?.focus());
  };
  return (
    <>
      <div role="tablist" aria-label={t('tabsLabel')} class="tabs">
        {props.tabs.map((t, i) => (
          <button
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            key={t.id}
            aria-selected={t.id === props.active}
            aria-controls={`panel-${t.id}`}
            tabIndex={t.id === props.active ? 0 : -1}
            class={t.id === props.active ? 'tab active' : 'tab'}
            onClick={() => props.onChange(t.id)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowRight') move(i + 1);
              else if (e.key === 'ArrowLeft') move(i - 1);
              else if (e.key === 'Home') move(0);
              else if (e.key === 'End') move(props.tabs.length - 1);
              else return;
              e.preventDefault();
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${props.active}`} aria-labelledby={`tab-${props.active}`} data-index={index}>
        {props.children}
      </div>
    </>
  );
}
