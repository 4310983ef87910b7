/**
 * On-chain verification on the worker's platform: builds {@link ChainVerification} from the platform's
 * fetch, clock and timers, the user's chain preferences (storage.local `chainPreferences`, lib/store/chain.ts) and the
 * host permission of each RPC origin; re-checks each tracked receipt on the verifier's cadence until every leg is
 * settled, and keeps each intent's latest verdict in storage.local (`chainVerdict:<intentId>`) for the popup.
 *
 * The background's hook: {@link ChainVerifierOnPlatform.changed} on each change the tracker reports (a receipt
 * recorded, or the intent removed), {@link ChainVerifierOnPlatform.resume} once per worker life (timers die with the
 * worker). A change of the preferences resumes by itself.
 */
import type { IntentReceipt } from '../api/schemas/receipt';
import { RpcBudget } from '../chain/budget';
import type { Disagreement } from '../chain/disagreement';
import { chainSetting, parseRpcUrl } from '../chain/settings';
import { type ChainSetting, LegVerifier } from '../chain/verifier';
import type { Platform } from '../platform';
import type { ChainVerdict, TrackedIntent } from '../store';
import {
  CHAIN_PREFERENCES_KEY,
  CHAIN_TOLD_KEY,
  CHAIN_VERDICT_PREFIX,
  chainVerdictKey,
  loadChainPreferences,
  readChainVerdict,
} from '../store/chain';
import { type ChainVerification, createChainVerification, type ReceiptVerification, type ToldStore } from './chain-verify';

export { CHAIN_PREFERENCES_KEY, CHAIN_TOLD_KEY } from '../store/chain';

/** The told-set keeps the newest this many disagreement keys. */
const MAX_TOLD = 2_000;

/** The verifier on the platform. */
export interface ChainVerifierOnPlatform {
  /** Verifies `receipt` now and keeps re-checking it on its cadence; resolves with the verification (never rejects). */
  onReceipt(receipt: IntentReceipt): Promise<ReceiptVerification | undefined>;
  /** The tracker changed `intentId`: verifies its receipt, or forgets it when it is no longer tracked. Never rejects. */
  changed(intentId: string): Promise<void>;
  /**
   * Checks again the tracked receipts whose stored verdict is not settled and that have no check pending (a worker
   * life starts: the timers of the last one died with it); with `all`, also those never verified (a chain was just
   * turned on). Reads the tracked intents only when there is such a verdict or `all`. Never rejects.
   */
  resume(all?: boolean): Promise<void>;
  /** The last verification of an intent in this worker life. */
  last(intentId: string): ReceiptVerification | undefined;
  /** Stops re-checking an intent (removed by the user) and drops what is kept of it (verdict, told keys, memory). */
  forget(intentId: string): Promise<void>;
}

/** What the wiring needs besides the platform. */
export interface ChainWiringOptions {
  /** The notification pipeline's hook for a disagreement (lib/notify/chain.ts, `showChain`). */
  notify: (intentId: string, disagreement: Disagreement, text: string, receipt: IntentReceipt) => Promise<void>;
  /** The tracked intents as the tracker holds them (default: none; then {@link ChainVerifierOnPlatform.changed} forgets). */
  intents?: () => Promise<ReadonlyArray<Pick<TrackedIntent, 'intentId' | 'receipt'>>>;
  /** One tracked intent (default: found in `intents()`); each receipt change asks for one, so it must not copy the list. */
  intent?: (intentId: string) => Promise<Pick<TrackedIntent, 'intentId' | 'receipt'> | undefined>;
  /** Whether the extension holds the host permission `pattern` (default: browser.permissions.contains). */
  hasPermission?: (pattern: string) => Promise<boolean>;
  budget?: RpcBudget;
}

/** The verdict as the popup reads it (plain data: no bigint). */
function verdictOf(v: ReceiptVerification): ChainVerdict {
  return {
    intentId: v.intentId,
    verified: v.verified,
    settled: v.settled,
    legs: v.legs.map((l) => ({
      leg: l.leg,
      chainId: l.chainId,
      kind: l.check.kind,
      text: l.text,
      ...(l.transfer ? { transfer: l.transfer } : {}),
    })),
  };
}

type LocalArea = Platform['browser']['storage']['local'];

/**
 * The settings of the chains that are on and whose RPC origin the user granted: `refresh()` reads them again (before
 * each check), `setting(chainId)` answers from the last read.
 */
function grantedChains(storage: LocalArea, hasPermission: (pattern: string) => Promise<boolean>) {
  let settings = new Map<number, ChainSetting>();
  return {
    setting: (chainId: number) => settings.get(chainId),
    async refresh() {
      const preferences = await loadChainPreferences(storage);
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
function toldStoreOn(storage: LocalArea): ToldStore & { forgetIntent(intentId: string): Promise<void> } {
  const list = async () => ((await storage.get(CHAIN_TOLD_KEY))[CHAIN_TOLD_KEY] as string[] | undefined) ?? [];
  return {
    has: async (key) => (await list()).includes(key),
    add: async (key) => void (await storage.set({ [CHAIN_TOLD_KEY]: [...(await list()), key].slice(-MAX_TOLD) })),
    async forgetIntent(intentId) {
      const all = await list();
      const kept = all.filter((k) => !k.startsWith(`chain:${intentId}:`));
      if (kept.length !== all.length) await storage.set({ [CHAIN_TOLD_KEY]: kept });
    },
  };
}

/** The intentIds whose stored verdict is not settled (a check was still due when the last worker life ended). */
async function unsettledIntentIds(storage: LocalArea): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const [key, value] of Object.entries(await storage.get(null)))
    if (key.startsWith(CHAIN_VERDICT_PREFIX) && !readChainVerdict(value)?.settled) ids.add(key.slice(CHAIN_VERDICT_PREFIX.length));
  return ids;
}

/**
 * Calls `fn` when the user's chain preferences change or a host permission is granted (the prompt may be answered
 * after the save). A platform without these events (a test double) calls it never.
 */
function onPreferencesOrGrant(browser: Platform['browser'], fn: () => void): void {
  try {
    browser.storage.onChanged?.addListener((changes, area) => {
      if (area === 'local' && CHAIN_PREFERENCES_KEY in changes) fn();
    });
    browser.permissions.onAdded?.addListener(fn);
  } catch {}
}

/** What the checks of each intent's receipt use. */
interface ReceiptChecksDeps {
  timers: Platform['timers'];
  /** storage.local: each intent's verdict (`chainVerdict:<intentId>`) for the popup. */
  storage: LocalArea;
  /** The chains turned on and granted, read again before each check. */
  chains: Pick<ReturnType<typeof grantedChains>, 'refresh'>;
  service: ChainVerification;
  told: Pick<ReturnType<typeof toldStoreOn>, 'forgetIntent'>;
  /** The receipt last checked per intent (shared with the disagreement notice, which names its legs). */
  receipts: Map<string, IntentReceipt>;
}

/**
 * The checks of each intent's receipt: `check` verifies a receipt now and sets its next check on the verifier's
 * cadence, storing the verdict when it changed; `forget` stops an intent's checks and drops what is kept of it;
 * `pending` says whether a next check is set; `last` the last verification in this worker life.
 */
function createReceiptChecks(deps: ReceiptChecksDeps) {
  const { storage, chains, service, told, receipts } = deps;
  const latest = new Map<string, ReceiptVerification>();
  const timers = new Map<string, unknown>();
  /** Bumped when an intent is forgotten: a check still running for it then stores nothing. */
  const generation = new Map<string, number>();

  const check = async (receipt: IntentReceipt): Promise<ReceiptVerification | undefined> => {
    const id = receipt.intentId;
    const gen = generation.get(id) ?? 0;
    deps.timers.clearTimeout(timers.get(id));
    timers.delete(id);
    receipts.set(id, receipt);
    try {
      await chains.refresh();
      const result = await service.verifyReceipt(receipt);
      if ((generation.get(id) ?? 0) !== gen) return undefined;
      const before = latest.get(id);
      latest.set(id, result);
      if (result.nextCheckMs !== undefined)
        timers.set(
          id,
          deps.timers.setTimeout(() => void check(receipt), result.nextCheckMs),
        );
      // Written when it changed: the popup listens to storage changes.
      const verdict = verdictOf(result);
      if (!before || JSON.stringify(verdictOf(before)) !== JSON.stringify(verdict))
        await storage.set({ [chainVerdictKey(id)]: verdict }).catch(() => {});
      return result;
    } catch {
      return latest.get(id);
    }
  };

  const forget = async (intentId: string) => {
    generation.set(intentId, (generation.get(intentId) ?? 0) + 1);
    deps.timers.clearTimeout(timers.get(intentId));
    timers.delete(intentId);
    latest.delete(intentId);
    receipts.delete(intentId);
    service.forget(intentId);
    await storage.remove(chainVerdictKey(intentId)).catch(() => {});
    await told.forgetIntent(intentId).catch(() => {});
  };

  return {
    check,
    forget,
    pending: (intentId: string) => timers.has(intentId),
    last: (intentId: string) => latest.get(intentId),
  };
}

/** Builds the verifier on `platform`. */
export function createChainVerifierOnPlatform(
  platform: Pick<Platform, 'fetch' | 'clock' | 'timers' | 'browser'>,
  options: ChainWiringOptions,
): ChainVerifierOnPlatform {
  const storage = platform.browser.storage.local;
  const intents = options.intents ?? (async () => []);
  const intentOf = options.intent ?? (async (id: string) => (await intents()).find((i) => i.intentId === id));
  const chains = grantedChains(
    storage,
    options.hasPermission ?? ((pattern: string) => platform.browser.permissions.contains({ origins: [pattern] }).catch(() => false)),
  );
  const { setting } = chains;
  const verifier = new LegVerifier({
    fetch: platform.fetch,
    monotonic: () => platform.clock.monotonic(),
    setting,
    budget: options.budget ?? new RpcBudget({ monotonic: () => platform.clock.monotonic() }),
  });
  const told = toldStoreOn(storage);
  const receipts = new Map<string, IntentReceipt>();
  const service: ChainVerification = createChainVerification({
    verifier,
    setting,
    told,
    notify: (intentId, d, text) => options.notify(intentId, d, text, receipts.get(intentId) ?? ({ intentId } as IntentReceipt)),
  });
  const checks = createReceiptChecks({ timers: platform.timers, storage, chains, service, told, receipts });
  const { check, forget } = checks;

  const resume = async (all = false) => {
    try {
      const unsettled = all ? new Set<string>() : await unsettledIntentIds(storage);
      if (!all && unsettled.size === 0) return;
      for (const intent of await intents())
        if (intent.receipt && !checks.pending(intent.intentId) && (all || unsettled.has(intent.intentId))) await check(intent.receipt);
    } catch {
      // The next change or worker life tries again.
    }
  };

  // Turning a chain on, changing its RPC URL or granting its origin starts the checks it allows.
  onPreferencesOrGrant(platform.browser, () => void resume(true));

  return {
    onReceipt: check,
    async changed(intentId) {
      const intent = await intentOf(intentId).catch(() => null);
      if (intent === null) return;
      if (!intent) await forget(intentId);
      // A record written with the same receipt (its check time) waits for the check already set on the cadence.
      else if (intent.receipt && !(checks.pending(intentId) && JSON.stringify(receipts.get(intentId)) === JSON.stringify(intent.receipt)))
        await check(intent.receipt);
    },
    resume,
    last: checks.last,
    forget,
  };
}
