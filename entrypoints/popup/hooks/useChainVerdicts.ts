import { useEffect, useState } from 'preact/hooks';
import type { ChainVerdict } from '@/lib/store';
import { CHAIN_VERDICT_PREFIX, loadChainVerdicts } from '@/lib/store/chain-verdicts';

/**
 * The worker's on-chain verdicts of the tracked intents `intentIds` (docs/chain.md), read from storage.local (the popup
 * imports none of the verifier's code) and again whenever the worker stores a new one. Empty until read, and for
 * intents never verified (verification off for their chains).
 */
export function useChainVerdicts(intentIds: readonly string[]): Map<string, ChainVerdict> {
  const [verdicts, setVerdicts] = useState(new Map<string, ChainVerdict>());
  const key = intentIds.join(',');
  useEffect(() => {
    const ids = key ? key.split(',') : [];
    let live = true;
    const load = () =>
      void loadChainVerdicts(browser.storage.local, ids).then((v) => {
        if (live) setVerdicts(v);
      });
    load();
    const onChanged = (changes: Record<string, unknown>, area: string) => {
      if (area === 'local' && Object.keys(changes).some((k) => k.startsWith(CHAIN_VERDICT_PREFIX))) load();
    };
    browser.storage.onChanged.addListener(onChanged);
    return () => {
      live = false;
      browser.storage.onChanged.removeListener(onChanged);
    };
  }, [key]);
  return verdicts;
}
