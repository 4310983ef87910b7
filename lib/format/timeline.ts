/**
 * The progress of an intent as a timeline: deposit → origin → destination (→ refund), each leg's state and how long
 * it took, from the legs' `txnMinedAt` (ms throughout). Pure; the popup's Timeline and progress bar draw it.
 */
import { LEG_KINDS, type LegKind, legOf } from '../api/legs';
import type { IntentReceipt } from '../api/schemas/receipt';
import { FINAL_STATUSES, finishedAtMs, startedAtMs } from '../eta';
import { routeChains } from './intent';

/** `done` (SUCCEEDED), `failed`, `active` (present, not settled), `waiting` (not there yet), `skipped` (never will be). */
export type StepState = 'done' | 'failed' | 'active' | 'waiting' | 'skipped';

/** One leg on the timeline. `tookMs`: from the previous point (execution start, or the previous leg mined) to mined. */
export interface TimelineStep {
  kind: LegKind;
  state: StepState;
  /** The leg's TransactionStatus as it came; undefined while the receipt has no such leg. */
  status?: string;
  tookMs?: number;
}

/** The whole timeline. `progress` is in 0..1; `totalMs` is set once the intent is final. */
export interface Timeline {
  steps: TimelineStep[];
  progress: number;
  final: boolean;
  totalMs?: number;
}

const FAILED_TX = ['FAILED', 'REVERTED', 'ERRORED', 'ABORTED'];

const parse = (iso: string | null | undefined): number | undefined => {
  const ms = Date.parse(iso ?? '');
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * The timeline of a receipt. The destination step is left out of same-chain intents that have no destination leg;
 * the refund step shows only when the receipt has a refund leg.
 */
export function timelineOf(receipt: IntentReceipt): Timeline {
  const status = receipt.status ?? '';
  const final = FINAL_STATUSES.includes(status);
  const { origin, destination } = routeChains(receipt);
  const kinds = LEG_KINDS.filter((kind) => {
    const leg = legOf(receipt, kind);
    if (kind === 'refund') return leg !== undefined;
    if (kind === 'destination') return leg !== undefined || origin === undefined || origin !== destination;
    return true;
  });
  let previous = startedAtMs(receipt);
  const steps = kinds.map((kind): TimelineStep => {
    const leg = legOf(receipt, kind);
    if (!leg) return { kind, state: final ? 'skipped' : 'waiting' };
    const txStatus = leg.status ?? undefined;
    const state: StepState =
      txStatus === 'SUCCEEDED' ? 'done' : txStatus && FAILED_TX.includes(txStatus) ? 'failed' : final ? 'skipped' : 'active';
    const mined = parse(leg.txnMinedAt);
    const from = previous ?? parse(leg.createdAt);
    const tookMs = mined !== undefined && from !== undefined && mined >= from ? mined - from : undefined;
    if (mined !== undefined) previous = mined;
    return { kind, state, ...(txStatus ? { status: txStatus } : {}), ...(tookMs !== undefined ? { tookMs } : {}) };
  });
  // A refunded intent's failed origin is part of the way, not a step left to do.
  const planned = steps.filter((s) => s.state !== 'skipped').length || 1;
  const settled = steps.filter((s) => s.state === 'done' || s.state === 'failed').length;
  const start = startedAtMs(receipt);
  const end = final ? finishedAtMs(receipt) : undefined;
  return {
    steps,
    progress: final ? 1 : Math.min(1, settled / planned),
    final,
    ...(start !== undefined && end !== undefined && end >= start ? { totalMs: end - start } : {}),
  };
}
