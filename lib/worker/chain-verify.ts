/**
 * The worker's on-chain verification service (docs/chain.md): for a tracked intent's receipt, verifies each verifiable leg
 * on its chain (lib/chain), words each verdict for the receipt view, tells each disagreement once through `notify`
 * (the notification pipeline's hook), and says when to check again. The worker calls {@link ChainVerification.verifyReceipt}
 * on each receipt update and when {@link ReceiptVerification.nextCheckMs} has passed (each leg is asked of its chain only
 * when it is due, lib/chain/verifier.ts); nothing here keeps a timer.
 */
import type { LegKind } from '../api/legs';
import type { IntentReceipt } from '../api/schemas/receipt';
import { MIN_CHECK_MS } from '../chain/cadence';
import { type Disagreement, disagreementKey, disagreementOf, isVerifiedOnChain } from '../chain/disagreement';
import { type LegRef, verifiableLegs } from '../chain/legs';
import type { ChainSetting, LegVerification, LegVerifier } from '../chain/verifier';
import { isSettled, type LegCheck } from '../chain/verify';
import { disagreementText, legCheckText, transferText } from '../format/verification';
import type { ChainVerdict } from '../store';
import { keptCheck } from './chain-kept';
import { NamedTransactions } from './chain-named';

/** One leg's verification as the receipt view shows it. */
export interface LegVerificationView {
  leg: LegKind;
  chainId: number;
  /** The transaction checked (lower-case hex). */
  txnHash: string;
  check: LegCheck;
  /** "Confirmed on Base · block 24,117,902 · 12 confirmations". */
  text: string;
  /** Destination leg: "Received 249.10 USDC at 0x12…ab". */
  transfer?: string;
}

/** The verification of one receipt. */
export interface ReceiptVerification {
  intentId: string;
  /** The receipt's IntentStatus the verification was made for. */
  serviceStatus: string;
  legs: LegVerificationView[];
  /** The service says SUCCEEDED and the destination is final with the exact transfer: "verified on-chain". */
  verified: boolean;
  /** Delay (ms) before the next check is worth its requests; undefined: every leg is settled or none is enabled. */
  nextCheckMs?: number;
  /** Every verifiable leg of the receipt has a verdict no further block changes: nothing to check again. */
  settled: boolean;
}

/** Which disagreement keys were already told (kept in storage by the worker, so that a restart does not repeat one). */
export interface ToldStore {
  has(key: string): Promise<boolean>;
  add(key: string): Promise<void>;
}

/** What the service needs. */
export interface ChainVerificationDeps {
  verifier: LegVerifier;
  /** The setting of an enabled chain (as the verifier's), for the cadence. */
  setting: (chainId: number) => ChainSetting | undefined;
  told: ToldStore;
  /** Shows a disagreement (title: the intent; `text`: {@link disagreementText}) through the notification pipeline. */
  notify: (intentId: string, disagreement: Disagreement, text: string) => Promise<void>;
}

/** Options of {@link ChainVerification.verifyReceipt}. */
export interface VerifyReceiptOptions {
  /**
   * The intent's stored verdict: a leg it keeps final (same chain and transaction, lib/worker/chain-kept.ts) is taken
   * as is, without a request, when this life has no verdict of it.
   */
  known?: ChainVerdict;
  /**
   * Called as each leg's verdict comes in (after its disagreement, if any, is told) while another leg is still being
   * read: the verification so far, its legs in leg order, not settled, without `nextCheckMs`.
   */
  onLeg?: (partial: ReceiptVerification) => void;
}

/** The service; one per worker life. */
export interface ChainVerification {
  /**
   * Verifies the receipt's legs that are due (within budget; the others keep their last verdict, no request) and tells
   * new disagreements; never throws for a chain's failure, nor for a telling the pipeline refused (that one is tried
   * again: `nextCheckMs` is then at most the cadence's minimum).
   */
  verifyReceipt(receipt: IntentReceipt, options?: VerifyReceiptOptions): Promise<ReceiptVerification>;
  /** Forgets an intent (removed by the user): its previous verdicts, and the verifier's memory of its legs. */
  forget(intentId: string): void;
}

/** Builds the service. */
export function createChainVerification(deps: ChainVerificationDeps): ChainVerification {
  /**
   * This life's last verdict per transaction of a leg, by {@link previousKey}: a leg whose transaction (or chain) the
   * service names anew is compared with that transaction's own verdict, never with the one it replaced.
   */
  const previous = new Map<string, LegCheck>();
  /** Disagreements found whose telling the pipeline refused, per `<intentId>:<leg>`. */
  const untold = new Map<string, Disagreement>();
  /** What `forget` makes the verifier forget: each intent's transactions of a chain on or known to the verifier. */
  const named = new NamedTransactions();
  /** Bumped when an intent is forgotten: a check under way since (a leg's read up to its time-out) tells nothing. */
  const forgotten = new Map<string, number>();
  const state: TellState = { previous, untold, inTurn: turns() };
  return {
    forget(intentId) {
      forgotten.set(intentId, (forgotten.get(intentId) ?? 0) + 1);
      for (const txn of named.take(intentId)) deps.verifier.forget(txn);
      // Every transaction the intent's legs named in this life, not only the last ones; every leg's untold telling.
      for (const key of previous.keys()) if (key.startsWith(`${intentId}:`)) previous.delete(key);
      for (const key of untold.keys()) if (key.startsWith(`${intentId}:`)) untold.delete(key);
    },
    async verifyReceipt(receipt, options = {}) {
      const refs = verifiableLegs(receipt);
      for (const ref of refs)
        deps.verifier.remember(
          ref,
          keptCheck(
            options.known?.legs.find((l) => l.leg === ref.leg),
            ref,
          ),
        );
      named.add(
        receipt.intentId,
        refs.filter((ref) => deps.setting(ref.chainId) || deps.verifier.knows(ref)),
      );
      const epoch = forgotten.get(receipt.intentId) ?? 0;
      const tracked = () => (forgotten.get(receipt.intentId) ?? 0) === epoch;
      const views: Array<LegVerificationView | undefined> = [];
      let refusedTelling = false;
      let reading = refs.length;
      // Every leg read side by side: an RPC origin that is slow or down (up to the transport's time-out) holds back
      // no read on another chain. Each verdict, as it comes, is told (one telling at a time, whatever the intent: the
      // told-set is one stored list) and handed to `onLeg` while another leg is still being read.
      await Promise.all(
        refs.map(async (ref, i) => {
          const got = await verdictOn(deps, receipt, ref, previous.get(previousKey(receipt.intentId, ref)));
          const told = await tellLeg(deps, state, receipt, ref, got, tracked);
          if (told?.refused) refusedTelling = true;
          views[i] = told?.view;
          if (--reading > 0 && told) options.onLeg?.(verificationOf(receipt, views, false));
        }),
      );
      let nextCheckMs: number | undefined;
      // Asked again when it is due (its cadence, the budget's refill, the back-off after a failure), never left behind.
      for (const ref of refs) {
        const due = deps.verifier.dueInMs(ref);
        if (due !== undefined) nextCheckMs = Math.min(nextCheckMs ?? Number.POSITIVE_INFINITY, Math.max(MIN_DUE_MS, due));
      }
      // A telling not queued (the outbox refused it): told at a check soon, the receipt not settled meanwhile.
      if (refusedTelling) nextCheckMs = Math.min(nextCheckMs ?? MIN_CHECK_MS, MIN_CHECK_MS);
      const result = verificationOf(receipt, views, nextCheckMs === undefined && views.filter(Boolean).length === refs.length);
      return { ...result, ...(nextCheckMs !== undefined ? { nextCheckMs } : {}) };
    },
  };
}

/** What the tellings of every check share: this life's previous verdicts, the untold disagreements, their turn. */
interface TellState {
  previous: Map<string, LegCheck>;
  untold: Map<string, Disagreement>;
  /**
   * Runs the telling `fn` after every telling queued before it, whatever the intent (a failure of one holds back none):
   * each reads and writes the one told-set, so that two checks never both find a disagreement untold and tell it.
   */
  inTurn: (fn: () => Promise<void>) => Promise<void>;
}

/** A turn of tellings ({@link TellState.inTurn}). */
function turns(): TellState['inTurn'] {
  let turn: Promise<void> = Promise.resolve();
  return (fn) => {
    const run = turn.then(fn);
    turn = run.then(
      () => {},
      () => {},
    );
    return run;
  };
}

/**
 * Tells the disagreement of a leg's verdict, if any and not told yet — and only while `tracked()` (its intent not
 * forgotten since the check began) — and words it; undefined when it has no verdict or its chain is off. `refused`:
 * the pipeline refused to queue the telling (tried again at a later check).
 */
async function tellLeg(
  deps: ChainVerificationDeps,
  { previous, untold, inTurn }: TellState,
  receipt: IntentReceipt,
  ref: LegRef,
  { current, fresh }: { current?: LegVerification; fresh: boolean },
  tracked: () => boolean,
): Promise<{ view: LegVerificationView; refused: boolean } | undefined> {
  if (!current || !deps.setting(ref.chainId)) return undefined;
  // Forgotten since the check began: this life's memory of the intent (previous verdicts, untold tellings) belongs to
  // whatever tracks it now, and nothing is told.
  if (!tracked()) return { view: legView(receipt, ref, current.check), refused: false };
  const key = `${receipt.intentId}:${ref.leg}`;
  const before = previousKey(receipt.intentId, ref);
  const { check } = current;
  // A re-org the pipeline refused to queue is told at a later check, though that check no longer sees it.
  const untoldBefore = untold.get(key);
  const disagreement =
    (fresh ? disagreementOf(receipt.status, ref.leg, check, previous.get(before)) : undefined) ??
    (untoldBefore?.kind === 'reorged' ? untoldBefore : undefined);
  previous.set(before, check);
  const refused =
    disagreement !== undefined &&
    (await inTurn(() => tellOnce(deps, receipt.intentId, ref.chainId, disagreement, tracked)).then(
      () => false,
      () => true,
    ));
  // Forgotten while its telling was under way: nothing is kept for whatever tracks the intent next.
  if (!tracked()) return { view: legView(receipt, ref, check), refused: false };
  if (refused) untold.set(key, disagreement);
  else untold.delete(key);
  return { view: legView(receipt, ref, check), refused };
}

/** The verification of `receipt` from the legs' views so far (in leg order; a leg without one is left out). */
function verificationOf(
  receipt: IntentReceipt,
  views: ReadonlyArray<LegVerificationView | undefined>,
  settled: boolean,
): ReceiptVerification {
  const legs = views.filter((v): v is LegVerificationView => v !== undefined);
  return {
    intentId: receipt.intentId,
    serviceStatus: receipt.status,
    legs,
    verified: isVerifiedOnChain(receipt.status, legs.find((l) => l.leg === 'destination')?.check),
    settled: legs.length > 0 && settled,
  };
}

/** A leg's verdict in words for the receipt view (the destination's transfer in the receipt's token). */
function legView(receipt: IntentReceipt, ref: LegRef, check: LegCheck): LegVerificationView {
  const meta = receipt.summary?.destinationTokenMetadata;
  const transfer =
    'transfer' in check && check.transfer
      ? transferText(check.transfer, meta?.symbol ?? undefined, meta?.decimals ?? undefined)
      : undefined;
  return {
    leg: ref.leg,
    chainId: ref.chainId,
    txnHash: ref.txnHash,
    check,
    text: legCheckText(check, ref.chainId),
    ...(transfer ? { transfer } : {}),
  };
}

/** The key of a leg's previous verdict: intent, leg, chain and transaction (as the stored verdict's legs are matched). */
const previousKey = (intentId: string, ref: LegRef) => `${intentId}:${ref.leg}:${ref.chainId}:${ref.txnHash}`;

/** The shortest delay (ms) before the next check of a receipt: a leg due sooner waits that long. */
const MIN_DUE_MS = 1_000;
/** How old (ms) a verdict that is not settled may be for a disagreement to be told from it without asking again. */
const FRESH_MS = MIN_CHECK_MS;

/**
 * A leg's verdict for this pass: asked of the chain only when the leg is due, else the last one. When that last one is
 * not settled, older than {@link FRESH_MS}, and would tell something not told yet, the chain is asked again first: a
 * disagreement is told from what the chain says now, not from an answer up to a minute old. `fresh`: whether a
 * disagreement may be told from `current`.
 */
async function verdictOn(
  deps: ChainVerificationDeps,
  receipt: IntentReceipt,
  ref: LegRef,
  previous: LegCheck | undefined,
): Promise<{ current?: LegVerification; fresh: boolean }> {
  const of = (r: Awaited<ReturnType<LegVerifier['verify']>>) => ('check' in r ? r : r.last);
  const isFresh = (v: LegVerification) => isSettled(v.check) || (deps.verifier.ageMs(ref) ?? 0) <= FRESH_MS;
  let current = of(await deps.verifier.verify(ref, { whenDue: true }));
  if (!current || isFresh(current)) return { ...(current ? { current } : {}), fresh: true };
  const d = disagreementOf(receipt.status, ref.leg, current.check, previous);
  if (!d || (await deps.told.has(disagreementKey(receipt.intentId, d)).catch(() => false))) return { current, fresh: false };
  current = of(await deps.verifier.verify(ref)) ?? current;
  return { current, fresh: isFresh(current) };
}

/**
 * Tells `disagreement` unless its key was told — and only while `tracked()`: an intent forgotten (removed by the user)
 * while this check read the chain or the told-set has had its told keys dropped, and is told nothing.
 */
async function tellOnce(
  deps: ChainVerificationDeps,
  intentId: string,
  chainId: number,
  disagreement: Disagreement,
  tracked: () => boolean,
): Promise<void> {
  const key = disagreementKey(intentId, disagreement);
  if (!tracked() || (await deps.told.has(key)) || !tracked()) return;
  // Told first, then remembered: a notification that could not be queued is tried again at the next check (the
  // pipeline queues a key once, so a restart between the two does not show it twice).
  await deps.notify(intentId, disagreement, disagreementText(disagreement.kind, chainId));
  await deps.told.add(key);
}
