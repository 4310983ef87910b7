/**
 * The watchdogs' actions (lib/tracker/watchdogs.ts decides; docs/tracking.md "Faults", I2): expiry on several fresh
 * answers in a row, the stuck warning queued before it is marked, and each on an answer this engine received itself.
 */
import { type EngineCore, trackingOf } from './engine-core';
import { expired, stuckWarned } from './transitions';
import { watch } from './watchdogs';

/**
 * The expiry watchdog expires an intent on this many fresh answers in a row that each show it past its window. A stale
 * replica answering COMMITTED for an intent that executes cannot be told from a true answer while the tracker has
 * not seen it EXECUTING: with one answer in three stale, 5 in a row expire such an intent about once in 400 waits,
 * 10 about once in 170,000 (0.3^10). The price: a true expiry comes about 10 answers after the window (3.3 min at one
 * long-poll answer every 20 s).
 */
export const EXPIRY_ANSWERS = 10;

/**
 * The watchdogs' pass at `now` (the tracker's ms): expires an intent on its {@link EXPIRY_ANSWERS}th fresh answer past
 * its window, raises a stuck warning, and names the intents a watchdog wants read first (`verify`); `wakeAt` (ms) is
 * when one may act next.
 */
export async function runWatchdogs(c: EngineCore, now: number): Promise<{ verify: Set<string>; wakeAt: number }> {
  let wakeAt = Number.POSITIVE_INFINITY;
  const verify = new Set<string>();
  // The earliest the service's time can be by every Date sample kept: a watchdog acts only once even that is past
  // its deadline. Until an answer told the service's time (a worker just started), while too few samples are kept,
  // or while its Date headers disagree or leave an error too wide to decide, a watchdog asks before it acts.
  const sure = c.serviceClock.earliestSure();
  const serviceNow = sure ?? c.serviceClock.now();
  const clockKnown = (c.heard || c.serviceClock.hasEvidence) && sure !== undefined && c.serviceClock.decidable;
  for (const t of trackingOf(c)) {
    const w = watch(t, now, c.tuning, c.deps.notifier.showStuck !== undefined, serviceNow, answerAge(c, t.intentId));
    if (w.action === 'none') wakeAt = Math.min(wakeAt, w.wakeAt ?? wakeAt);
    else if (w.action === 'verify' || !clockKnown) verify.add(t.intentId);
    else if (w.action === 'expire' && expiryVote(c, t.intentId)) await expire(c, t.intentId);
    else if (w.action === 'expire') verify.add(t.intentId);
    // While a read of it is in flight, its answer (maybe arrived, not yet read) is newer than the one confirmed: the
    // warning waits for it (its arrival wakes the pump). Expiry needs no such wait: each of its votes is a new answer,
    // cast by the pass its arrival wakes, before the next read goes out.
    else if (!readInFlight(c, t.intentId)) await stuck(c, t.intentId, w.minutes);
  }
  return { verify, wakeAt };
}

/** How long ago (monotonic ms) this engine had an answer that showed the status it believes; Infinity if never. */
export function answerAge(c: EngineCore, intentId: string): number {
  return c.clock.monotonic() - (c.confirmedAt.get(intentId) ?? Number.NEGATIVE_INFINITY);
}

/** True while a read of `intentId` (a long-poll or a single read) is in flight: its answer may already be on its way. */
export function readInFlight(c: EngineCore, intentId: string): boolean {
  return c.inFlight.has(intentId);
}

/**
 * One more fresh answer (told apart by its arrival, monotonic) on which the expiry watchdog would expire `intentId`;
 * true once {@link EXPIRY_ANSWERS} distinct ones did. Expiry ends tracking for good, and a stale replica may answer
 * COMMITTED for an intent that executes while the tracker has not yet seen it EXECUTING: each further answer is a
 * fresh read, and any answer that is not COMMITTED starts the count again (`#record`).
 */
function expiryVote(c: EngineCore, intentId: string): boolean {
  const at = c.confirmedAt.get(intentId);
  const votes = c.expiryVotes.get(intentId) ?? new Set<number>();
  if (at !== undefined) votes.add(at);
  c.expiryVotes.set(intentId, votes);
  return votes.size >= EXPIRY_ANSWERS;
}

/** Expires `intentId` (EXPIRY_ANSWERS fresh answers showed it past its window). */
async function expire(c: EngineCore, intentId: string): Promise<void> {
  const now = c.clock.now();
  // A refused write leaves it tracked (its votes stand): the next pass expires it again. Thrown, it would end the
  // pump's pass before any check of any intent is sent or the next wake-up set.
  await c.mirror.write(intentId, (t) => expired(t, now)).catch(() => {});
}

/**
 * The stuck warning: queued with the notifier first, then marked given (`stuckNotifiedAt`). A mark written first
 * would lose the warning to a worker dying before it was queued; queued first, a worker dying before the mark
 * queues it again on its next wake-up, and the notifier keeps one warning per intent. A rejected queue leaves the
 * mark unwritten: the next watchdog turn tries again.
 */
async function stuck(c: EngineCore, intentId: string, minutes: number): Promise<void> {
  const { notifier } = c.deps;
  const clock = c.clock;
  const current = c.mirror.get(intentId);
  if (!current || current.stuckNotifiedAt !== undefined || !notifier.showStuck) return;
  // Asked again when the warning's turn comes (the notifier may wait for a notification being grouped): an answer
  // that arrived meanwhile and did not show EXECUTING (a stale one), or a read gone out since, leaves the decision to
  // the next watchdog turn.
  const stillDue = () => {
    const t = c.mirror.get(intentId);
    return (
      t?.phase === 'tracking' && t.status === 'EXECUTING' && answerAge(c, intentId) < c.tuning.freshForMs && !readInFlight(c, intentId)
    );
  };
  try {
    if ((await notifier.showStuck(current, minutes, stillDue)) === false) return;
  } catch {
    return;
  }
  const now = clock.now();
  // A refused mark leaves the warning queued (the notifier keeps one per intent) and unmarked: the next watchdog turn
  // marks it again. Thrown, it would end the pump's pass before any check of any intent is sent or the next wake-up
  // set, and each pass while the answer is fresh would end the same way.
  await c.mirror.write(intentId, (t) => stuckWarned(t, now)).catch(() => {});
}
