/**
 * On-chain verification settings on an extension page (options, welcome): the user's per-chain preferences read from
 * and saved to storage.local (lib/store/chain.ts), checked before saving (lib/chain/settings.ts), and the browser's
 * host-permission prompt for exactly the RPC origins of the chains turned on.
 */
import { useEffect, useState } from 'preact/hooks';
import { type ChainPreferenceProblem, type ChainPreferences, checkChainPreferences } from '@/lib/chain/settings';
import { chainName } from '@/lib/format/chains';
import { t } from '@/lib/i18n';
import { loadChainPreferences, saveChainPreferences } from '@/lib/store/chain';
import type { Status } from './save';

/** The preferences as edited, loaded once from storage.local. */
export function useChainPreferences() {
  const [preferences, setPreferences] = useState<ChainPreferences>({});
  useEffect(() => {
    void loadChainPreferences(browser.storage.local).then(setPreferences);
  }, []);
  return { preferences, setPreferences };
}

/** A problem of {@link checkChainPreferences} in the user's words. */
export function chainProblemText(problem: ChainPreferenceProblem): string {
  const chain = chainName(problem.chainId);
  switch (problem.reason) {
    case 'invalid':
      return t('chainRpcInvalid', chain);
    case 'not-https':
      return t('chainRpcNotHttps', chain);
    case 'credentials':
      return t('chainRpcCredentials', chain);
    case 'depth':
      return t('chainDepthInvalid', chain);
  }
}

/** Whether every pattern is granted (no chain turned on: true). */
export async function chainsGranted(patterns: readonly string[]): Promise<boolean> {
  if (patterns.length === 0) return true;
  return browser.permissions.contains({ origins: [...patterns] }).catch(() => false);
}

/** The sentence after a save: saved, or waiting for the access the prompt did not give. */
export async function chainsStatus(patterns: readonly string[]): Promise<Status> {
  return (await chainsGranted(patterns)) ? { text: t('chainsSaved'), ok: true } : { text: t('chainsNotGranted'), ok: false };
}

/**
 * Saves the preferences and asks for their RPC origins (`patterns`, from {@link checkChainPreferences}). MUST be
 * called straight from the click: the request goes out before anything is awaited. Reports the outcome once the
 * prompt is answered; resolves false when the preferences could not be stored.
 */
export function saveChainsFromClick(
  preferences: ChainPreferences,
  patterns: readonly string[],
  report: (s: Status) => void,
): Promise<boolean> {
  const granted = patterns.length > 0 ? browser.permissions.request({ origins: [...patterns] }).catch(() => false) : Promise.resolve(true);
  return (async () => {
    try {
      await saveChainPreferences(browser.storage.local, preferences);
    } catch (err) {
      report({ text: t('couldNotSave', err instanceof Error ? err.message : String(err)), ok: false });
      return false;
    }
    await granted;
    report(await chainsStatus(patterns));
    return true;
  })();
}

export { checkChainPreferences };
