/**
 * The on-chain verification items of `storage.local` (docs/chain.md), typed in one place: the user's per-chain
 * preferences (`chainPreferences`, written by the options and welcome pages, read by the worker), the disagreement
 * keys already told (`chainTold`) and the latest verdict of each tracked intent (`chainVerdict:<intentId>`, written by
 * the worker, read by the popup). All of them stay on this device: an RPC URL may carry a provider's key in its path,
 * and the host permission it needs is granted per browser, so none is synced (unlike the notification choices).
 * Plain data, no viem: the pages import this module; the popup imports only `./chain-verdicts`.
 */
import { type ChainPreferences, readChainPreferences } from '../chain/settings';

/** storage.local key of the user's per-chain preferences ({@link ChainPreferences}). */
export const CHAIN_PREFERENCES_KEY = 'chainPreferences';
/** storage.local key of the disagreement keys already told (a list, oldest first, at most a few thousand). */
export const CHAIN_TOLD_KEY = 'chainTold';

import type { StorageArea } from './chain-verdicts';

export { CHAIN_VERDICT_PREFIX, chainVerdictKey, loadChainVerdicts, readChainVerdict, type StorageArea } from './chain-verdicts';

/** The user's chain preferences as stored (a damaged entry turns its chain off; an unreadable area reads as none). */
export async function loadChainPreferences(area: Pick<StorageArea, 'get'>): Promise<ChainPreferences> {
  const stored = await area.get(CHAIN_PREFERENCES_KEY).catch(() => ({}) as Record<string, unknown>);
  return readChainPreferences(stored[CHAIN_PREFERENCES_KEY]);
}

/** Stores the user's chain preferences (rejects when the area refuses the write). */
export async function saveChainPreferences(area: Pick<StorageArea, 'set'>, preferences: ChainPreferences): Promise<void> {
  await area.set({ [CHAIN_PREFERENCES_KEY]: preferences });
}
