/**
 * What the worker's on-chain verification keeps in storage.local and reads from the browser (docs/chain.md): the chains
 * turned on and granted, the told-set (`chainTold`), each intent's stored verdict (`chainVerdict:<intentId>`) in the
 * popup's plain shape, and the events that turn a chain on.
 */
import { chainSetting, parseRpcUrl } from '../chain/settings';
import type { ChainSetting } from '../chain/verifier';
import type { Platform } from '../platform';
import type { ChainVerdict } from '../store';
import { CHAIN_PREFERENCES_KEY, CHAIN_TOLD_KEY, CHAIN_VERDICT_PREFIX, loadChainPreferences, readChainVerdict } from '../store/chain';
import { keptOf } from './chain-kept';
import type { ReceiptVerification, ToldStore } from './chain-verify';

/** The told-set keeps the newest this many disagreement keys. */
const MAX_TOLD = 2_000;

/**
 * storage.local of the worker's platform. (Named `area` below, never `storage`: WXT's auto-import would take a
 * `storage` this module does not declare for its own and bundle wxt/storage into the worker.)
 */
export type LocalArea = Platform['browser']['storage']['local'];

/**
 * The verdict as the popup reads it (plain data: no bigint), with the service status it was made for and, per leg in a
 * block, what a later check needs not to read a final leg again (lib/worker/chain-kept.ts).
 */
export function verdictOf(v: ReceiptVerification): ChainVerdict {
  return {
    intentId: v.intentId,
    verified: v.verified,
    settled: v.settled,
    serviceStatus: v.serviceStatus,
    legs: v.legs.map((l) => ({
      leg: l.leg,
      chainId: l.chainId,
      txnHash: l.txnHash,
      kind: l.check.kind,
      text: l.text,
      ...(l.transfer ? { transfer: l.transfer } : {}),
      ...keptOf(l.check),
    })),
  };
}

/** The chains turned on and granted, as {@link grantedChains} reads them. */
export interface GrantedChains {
  /** The setting of a chain on and granted at the last {@link GrantedChains.refresh}. */
  setting(chainId: number): ChainSetting | undefined;
  /** Whether any chain was on and granted at the last refresh. */
  any(): boolean;
  /** Reads the preferences and the permissions again (never rejects: an unreadable area reads as no chain on). */
  refresh(): Promise<void>;
}

/** The settings of the chains that are on and whose RPC origin the user granted. */
export function grantedChains(area: LocalArea, hasPermission: (pattern: string) => Promise<boolean>): GrantedChains {
  let settings = new Map<number, ChainSetting>();
  return {
    setting: (chainId: number) => settings.get(chainId),
    any: () => settings.size > 0,
    async refresh() {
      const preferences = await loadChainPreferences(area);
      const next = new Map<number, ChainSetting>();
      for (const id of Object.keys(preferences).map(Number)) {
        const setting = chainSetting(id, preferences);
        const parsed = setting && parseRpcUrl(setting.rpcUrl);
        if (setting && parsed?.ok && (await hasPermission(parsed.permissionPattern))) next.set(id, setting);
      }
      settings = next;
    },
  };
}

/** The told-set in storage.local (`chainTold`, the newest {@link MAX_TOLD}); `forgetIntent` drops an intent's keys. */
export function toldStoreOn(area: LocalArea): ToldStore & { forgetIntent(intentId: string): Promise<void> } {
  const list = async () => ((await area.get(CHAIN_TOLD_KEY))[CHAIN_TOLD_KEY] as string[] | undefined) ?? [];
  return {
    has: async (key) => (await list()).includes(key),
    add: async (key) => void (await area.set({ [CHAIN_TOLD_KEY]: [...(await list()), key].slice(-MAX_TOLD) })),
    async forgetIntent(intentId) {
      const all = await list();
      const kept = all.filter((k) => !k.startsWith(`chain:${intentId}:`));
      if (kept.length !== all.length) await area.set({ [CHAIN_TOLD_KEY]: kept });
    },
  };
}

/** Every stored verdict, by intentId (rejects when storage.local cannot be read). */
export async function storedVerdicts(area: LocalArea): Promise<Map<string, ChainVerdict>> {
  const out = new Map<string, ChainVerdict>();
  for (const [key, value] of Object.entries(await area.get(null))) {
    const verdict = key.startsWith(CHAIN_VERDICT_PREFIX) ? readChainVerdict(value) : undefined;
    if (verdict) out.set(key.slice(CHAIN_VERDICT_PREFIX.length), verdict);
  }
  return out;
}

/**
 * Calls `fn` when the user's chain preferences change or a host permission is granted (the prompt may be answered
 * after the save). A platform without these events (a test double) calls it never.
 */
export function onPreferencesOrGrant(browser: Platform['browser'], fn: () => void): void {
  try {
    browser.storage.onChanged?.addListener((changes, area) => {
      if (area === 'local' && CHAIN_PREFERENCES_KEY in changes) fn();
    });
    browser.permissions.onAdded?.addListener(fn);
  } catch {}
}
