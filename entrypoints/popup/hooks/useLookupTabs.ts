import { useEffect, useState } from 'preact/hooks';

/** The lookup tabs' module (`../views/lookup-tabs`). */
export type LookupTabs = typeof import('../views/lookup-tabs');

/**
 * Loads the lookup tabs' chunk once `wanted` (the tracked list is shown, or a lookup tab was chosen); undefined until
 * it has loaded. A failed load is tried again the next time `wanted` turns true.
 */
export function useLookupTabs(wanted: boolean): LookupTabs | undefined {
  const [tabs, setTabs] = useState<LookupTabs>();
  useEffect(() => {
    if (!wanted || tabs) return;
    let live = true;
    import('../views/lookup-tabs').then(
      (m) => live && setTabs(m),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [wanted, tabs]);
  return tabs;
}
