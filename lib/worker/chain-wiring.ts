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
import { verifiableLegs } from '../chain/legs';
import { LegVerifier } from '../chain/verifier';
import type { Platform } from '../platform';
import type { ChainVerdict, TrackedIntent } from '../store';
import { chainVerdictKey, readChainVerdict } from '../store/chain';
import { createRetries, needsCheck, withLastKnown } from './chain-resume';
import {
  type GrantedChains,
  grantedChains,
  type LocalArea,
  onPreferencesOrGrant,
  storedVerdicts,
  toldStoreOn,
  verdictOf,
} from './chain-stores';
import { type ChainVerification, createChainVerification, type ReceiptVerification } from './chain-verify';
import { createVerdictWriter } from './chain-writer';

export { CHAIN_PREFERENCES_KEY, CHAIN_TOLD_KEY } from '../store/chain';

/** The verifier on the platform. */
export interface ChainVerifierOnPlatform {
  /**
   * Verifies `receipt` now and keeps re-checking it on its cadence; resolves with the verification, or undefined when
   * the intent was forgotten or a newer check of it started meanwhile (that one stores and re-checks). Never rejects.
   */
  onReceipt(receipt: IntentReceipt): Promise<ReceiptVerification | undefined>;
  /** The tracker changed `intentId`: verifies its receipt, or forgets it when it is no longer tracked. Never rejects. */
  changed(intentId: string): Promise<void>;
  /**
   * Checks again the tracked receipts that have no check pending and whose stored verdict does not cover them
   * (lib/worker/chain-resume.ts `needsCheck`: none, not settled, made for another status, or lacking a leg) — a worker
   * life starts, and the timers of the last one died with it; with `all`, every tracked receipt (a chain was just
   * turned on). Reads the tracked intents only while a chain is on and granted. A failed read is tried again (5 s,
   * doubling up to 60 s). Never rejects.
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

/** What the checks of each intent's receipt use. */
interface ReceiptChecksDeps {
  timers: Platform['timers'];
  /** storage.local: each intent's verdict (`chainVerdict:<intentId>`) for the popup. */
  storage: LocalArea;
  /** The chains turned on and granted, read again before each check. */
  chains: Pick<GrantedChains, 'refresh' | 'setting' | 'any'>;
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
  /**
   * Bumped when a check of an intent starts and when the intent is forgotten: a check overtaken meanwhile (a newer
   * receipt's check ended first while this one waited on a slow RPC origin) stores nothing and sets no timer.
   */
  const generation = new Map<string, number>();
  const writer = createVerdictWriter(storage, (id, gen) => (generation.get(id) ?? 0) === gen);

  /** The verdict stored for an intent (undefined when none, or unreadable), from this life or an earlier one. */
  const earlier = async (id: string): Promise<ChainVerdict | undefined> =>
    readChainVerdict((await storage.get(chainVerdictKey(id)).catch(() => ({}) as Record<string, unknown>))[chainVerdictKey(id)]);

  const check = async (receipt: IntentReceipt): Promise<ReceiptVerification | undefined> => {
    const id = receipt.intentId;
    const gen = (generation.get(id) ?? 0) + 1;
    generation.set(id, gen);
    deps.timers.clearTimeout(timers.get(id));
    timers.delete(id);
    receipts.set(id, receipt);
    try {
      await chains.refresh();
      // What is stored: its final legs are not read again; its lines stand for the legs this life has no verdict of.
      const known = writer.written(id) ?? (await earlier(id));
      // Forgotten (or overtaken by a newer check) while the preferences and the stored verdict were read: the
      // verification, which tells, is not begun for an intent the user removed.
      if ((generation.get(id) ?? 0) !== gen) return undefined;
      const enabled = (chainId: number) => chains.setting(chainId) !== undefined;
      const result = await service.verifyReceipt(receipt, {
        ...(known ? { known } : {}),
        // Each leg stored as its chain answers, not when the slowest leg's read ends; the legs still being read keep
        // their stored lines as they are.
        onLeg: (partial) => void writer.write(id, gen, withLastKnown(verdictOf(partial), receipt, known, enabled, false)),
      });
      const own = verdictOf(result);
      const verdict = own.legs.length < verifiableLegs(receipt).length ? withLastKnown(own, receipt, known, enabled) : own;
      if ((generation.get(id) ?? 0) !== gen) return undefined;
      latest.set(id, result);
      // No chain on and nothing stored for the intent: there is nothing to store. An empty verdict was written for each
      // receipt change (a desk's thousands), each write a storage event in every open page of the extension.
      if (!chains.any() && !known) return result;
      if (result.nextCheckMs !== undefined)
        timers.set(
          id,
          deps.timers.setTimeout(() => void check(receipt), result.nextCheckMs),
        );
      await writer.write(id, gen, verdict);
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
    writer.forget(intentId);
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
  const setting = chains.setting;
  const verifier = new LegVerifier({
    fetch: platform.fetch,
    monotonic: () => platform.clock.monotonic(),
    timers: platform.timers,
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
  const retries = createRetries(platform.timers);

  const resume = async (all = false): Promise<void> => {
    const key = all ? 'resume-all' : 'resume';
    try {
      await chains.refresh();
      if (!chains.any()) return retries.done(key);
      const verdicts = await storedVerdicts(storage);
      const enabled = (chainId: number) => setting(chainId) !== undefined;
      const owed = (await intents()).filter(
        (intent) =>
          intent.receipt && !checks.pending(intent.intentId) && (all || needsCheck(intent.receipt, verdicts.get(intent.intentId), enabled)),
      );
      // Side by side: a receipt whose chain's RPC origin is slow or down holds back no other receipt's check.
      await Promise.all(owed.map((intent) => check(intent.receipt!)));
      retries.done(key);
    } catch {
      // A read refused (storage, IndexedDB): tried again in this life, or the receipt would wait for a change.
      retries.later(key, () => void resume(all));
    }
  };

  // Turning a chain on, changing its RPC URL or granting its origin starts the checks it allows.
  onPreferencesOrGrant(platform.browser, () => void resume(true));

  const changed = async (intentId: string): Promise<void> => {
    const intent = await intentOf(intentId).catch(() => null);
    // The tracked intents could not be read: asked again, else a receipt that changes no more is never checked.
    if (intent === null) return retries.later(`changed:${intentId}`, () => void changed(intentId));
    retries.done(`changed:${intentId}`);
    if (!intent) await forget(intentId);
    // A record written with the same receipt (its check time) waits for the check already set on the cadence.
    else if (intent.receipt && !(checks.pending(intentId) && JSON.stringify(receipts.get(intentId)) === JSON.stringify(intent.receipt)))
      await check(intent.receipt);
  };

  return { onReceipt: check, changed, resume, last: checks.last, forget };
}
