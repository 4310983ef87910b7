/**
 * On-chain verification on the worker's platform (issue 28): builds {@link ChainVerification} from the platform's
 * fetch, clock and timers, the user's chain preferences (storage.local `chainPreferences`, see lib/chain/settings.ts)
 * and the host permission of each RPC origin, and re-checks each tracked receipt on the verifier's cadence until
 * every leg is settled. The background's hook is two calls: {@link ChainVerifierOnPlatform.onReceipt} on each receipt
 * the tracker stores, {@link ChainVerifierOnPlatform.forget} when an intent is removed.
 */
import type { IntentReceipt } from '../api/schemas/receipt';
import { RpcBudget } from '../chain/budget';
import type { Disagreement } from '../chain/disagreement';
import { type ChainPreferences, chainSetting, parseRpcUrl, readChainPreferences } from '../chain/settings';
import { type ChainSetting, LegVerifier } from '../chain/verifier';
import type { Platform } from '../platform';
import { type ChainVerification, createChainVerification, type ReceiptVerification, type ToldStore } from './chain-verify';

/** storage.local key of the user's per-chain preferences. */
export const CHAIN_PREFERENCES_KEY = 'chainPreferences';
/** storage.local key of the disagreement keys already told (at most {@link MAX_TOLD}, oldest dropped). */
export const CHAIN_TOLD_KEY = 'chainTold';
const MAX_TOLD = 2_000;

/** The verifier on the platform. */
export interface ChainVerifierOnPlatform {
  /** Verifies `receipt` now and keeps re-checking it on its cadence; resolves with the verification (never rejects). */
  onReceipt(receipt: IntentReceipt): Promise<ReceiptVerification | undefined>;
  /** The last verification of an intent (for the receipt view). */
  last(intentId: string): ReceiptVerification | undefined;
  /** Stops re-checking an intent (removed by the user). */
  forget(intentId: string): void;
}

/** What the wiring needs besides the platform. */
export interface ChainWiringOptions {
  /** The notification pipeline's hook for a disagreement. */
  notify: (intentId: string, disagreement: Disagreement, text: string) => Promise<void>;
  /** Whether the extension holds the host permission `pattern` (default: browser.permissions.contains). */
  hasPermission?: (pattern: string) => Promise<boolean>;
  budget?: RpcBudget;
}

/** Builds the verifier on `platform`. */
export function createChainVerifierOnPlatform(
  platform: Pick<Platform, 'fetch' | 'clock' | 'timers' | 'browser'>,
  options: ChainWiringOptions,
): ChainVerifierOnPlatform {
  const storage = platform.browser.storage.local;
  const hasPermission =
    options.hasPermission ?? ((pattern: string) => platform.browser.permissions.contains({ origins: [pattern] }).catch(() => false));
  /** The settings of the chains that are on and whose RPC origin the user granted, refreshed before each check. */
  let settings = new Map<number, ChainSetting>();
  const refreshSettings = async () => {
    const stored = await storage.get(CHAIN_PREFERENCES_KEY).catch(() => ({}) as Record<string, unknown>);
    const preferences: ChainPreferences = readChainPreferences(stored[CHAIN_PREFERENCES_KEY]);
    const next = new Map<number, ChainSetting>();
    for (const id of Object.keys(preferences).map(Number)) {
      const setting = chainSetting(id, preferences);
      const parsed = setting && parseRpcUrl(setting.rpcUrl);
      if (setting && parsed?.ok && (await hasPermission(parsed.permissionPattern))) next.set(id, setting);
    }
    settings = next;
  };
  const setting = (chainId: number) => settings.get(chainId);
  const verifier = new LegVerifier({
    fetch: platform.fetch,
    monotonic: () => platform.clock.monotonic(),
    setting,
    budget: options.budget ?? new RpcBudget({ monotonic: () => platform.clock.monotonic() }),
  });
  const told: ToldStore = {
    has: async (key) => ((await storage.get(CHAIN_TOLD_KEY))[CHAIN_TOLD_KEY] as string[] | undefined)?.includes(key) ?? false,
    add: async (key) => {
      const list = ((await storage.get(CHAIN_TOLD_KEY))[CHAIN_TOLD_KEY] as string[] | undefined) ?? [];
      await storage.set({ [CHAIN_TOLD_KEY]: [...list, key].slice(-MAX_TOLD) });
    },
  };
  const service: ChainVerification = createChainVerification({ verifier, setting, told, notify: options.notify });
  const latest = new Map<string, ReceiptVerification>();
  const timers = new Map<string, unknown>();

  const check = async (receipt: IntentReceipt): Promise<ReceiptVerification | undefined> => {
    const id = receipt.intentId;
    platform.timers.clearTimeout(timers.get(id));
    timers.delete(id);
    try {
      await refreshSettings();
      const result = await service.verifyReceipt(receipt);
      latest.set(id, result);
      if (result.nextCheckMs !== undefined)
        timers.set(
          id,
          platform.timers.setTimeout(() => void check(receipt), result.nextCheckMs),
        );
      return result;
    } catch {
      return latest.get(id);
    }
  };
  return {
    onReceipt: check,
    last: (intentId) => latest.get(intentId),
    forget: (intentId) => {
      platform.timers.clearTimeout(timers.get(intentId));
      timers.delete(intentId);
      latest.delete(intentId);
    },
  };
}
