/**
 * The engine's requests (lib/tracker/engine.ts): one check of one intent (a long-poll or a single read), one page of
 * GetIntentHistory, and what their answers and errors write. Each answer is checked to be about the intent asked
 * before it is believed; a final status is handed to the delivery at once (I6).
 */
import { SvcApiError, SvcServiceError } from '../api/errors';
import type { IntentReceipt } from '../api/schemas/receipt';
import type { TransactionStatus } from '../api/status';
import type { TrackedIntent } from '../store';
import { type CheckKind, type EngineCore, pacedAsHeld, trackingOf } from './engine-core';
import {
  errorMeaning,
  ForeignReceiptError,
  isFinalStatus,
  isReceiptFor,
  isStatusBehind,
  longPollEndsBy,
  rememberState,
  sameStates,
  stateKey,
} from './policy';
import { answered, type Failure, failed } from './transitions';
import type { ReceiptTransport } from './types';

/** A long-poll starts only when the intent's last answer is at most this old; otherwise the slot reads it first. */
const READ_FIRST_AFTER_MS = 10_000;

/**
 * One check of one intent: a long-poll (`wait`) or a single read (`receipt`). A long-poll the server holds past
 * `waitCapMs` is ended and followed by a single read in the same slot. Resolves with true when the answer told
 * something new.
 */
export async function check(c: EngineCore, transport: ReceiptTransport, intentId: string, kind: CheckKind): Promise<boolean> {
  const controller = new AbortController();
  c.inFlight.set(intentId, { kind, controller });
  const clock = c.clock;
  const started = clock.now();
  const options = { signal: controller.signal };
  try {
    const t = pacedAsHeld(c, c.mirror.get(intentId));
    if (!t) return false;
    // A long-poll starts only on a recent answer (else the slot reads the receipt first) and ends by
    // `longPollEndsBy`, counted from when it was asked and from the intent's last answer, whatever the server's wait
    // and however long the request budget held it: the read that follows still comes within S(N). A first long-poll
    // (no states yet) is answered at once: it is a read.
    const recent = t.lastCheckedAt === undefined || started - t.lastCheckedAt <= READ_FIRST_AFTER_MS;
    if (kind === 'wait' && recent) {
      // The long-poll's signal: aborted at its cap, or with the check. The check's abort feeds it by a listener, not
      // `AbortSignal.any`: Node keeps a combined signal that has an abort listener (the request budget's, while the
      // long-poll waits in line) until it aborts, so a worker dropped in that wait stayed reachable for good.
      const cap = new AbortController();
      const stop = () => cap.abort(controller.signal.reason);
      controller.signal.addEventListener('abort', stop, { once: true });
      void clock.sleep(Math.max(0, longPollEndsBy(t, started, c.tuning) - clock.now()), cap.signal).then(() => cap.abort());
      try {
        const res = await transport.waitIntentReceipt(
          { intentId, lastReceiptStates: t.lastStates },
          { signal: cap.signal, timeoutMs: c.tuning.waitCapMs },
        );
        if (controller.signal.aborted) return false;
        checkFor(intentId, res.intentReceipt.intentId, 'WaitIntentReceipt');
        const status = res.intentReceipt.status;
        if (res.done && !isFinalStatus(status) && !c.doneLogged.has(intentId)) {
          c.doneLogged.add(intentId);
          console.warn('tracker: WaitIntentReceipt said done with a status that is not final; tracking goes on', { intentId, status });
        }
        const states = res.receiptStates ?? undefined;
        const final = isFinalStatus(status);
        // Unchanged, or stale (a status behind the believed one): the next long-poll waits its pause.
        const unchanged = !final && ((sameStates(states ?? [], t.lastStates) && status === t.status) || isStatusBehind(status, t.status));
        // A state seen before coming back is no news: a flapping service is asked at the idle pace.
        const flapping = !final && seenLately(c, intentId, stateKey(status, states ?? t.lastStates));
        const news = await record(
          c,
          intentId,
          res.intentReceipt,
          states,
          unchanged || flapping ? started + c.tuning.minWaitCycleMs : undefined,
          flapping,
        );
        if (news) c.longPolls.refund();
        return news;
      } catch (err) {
        const capped = cap.signal.aborted || (err instanceof SvcApiError && err.kind === 'timeout');
        if (controller.signal.aborted || !capped) throw err;
        // Held past our cap: read the receipt instead, in the same slot (unless the tracker was paused meanwhile).
        if (c.pause.paused()) return false;
      } finally {
        // Ends the cap's timer (an answer came first); the request is settled by then.
        controller.signal.removeEventListener('abort', stop);
        cap.abort();
      }
    }
    const res = await transport.getIntentReceipt({ intentId }, { ...options, timeoutMs: 15_000 });
    if (controller.signal.aborted) return false;
    checkFor(intentId, res.intentReceipt.intentId, 'GetIntentReceipt');
    const status = res.intentReceipt.status;
    const flapping = !isFinalStatus(status) && seenLately(c, intentId, stateKey(status, t.lastStates));
    return await record(c, intentId, res.intentReceipt, undefined, undefined, flapping);
  } catch (err) {
    if (controller.signal.aborted) return false;
    // A store that cannot write (quota, closed database) loses this answer, not the intent: it is asked again.
    await fail(c, intentId, err).catch((e: unknown) =>
      console.error('tracker could not record an error', e instanceof Error ? e.message : e),
    );
    return false;
  } finally {
    if (c.inFlight.get(intentId)?.controller === controller) c.inFlight.delete(intentId);
    if (kind === 'receipt') c.refresh.settle(intentId);
    c.kick();
  }
}

/** One page of GetIntentHistory; every final row of a tracked intent is acted on at once. True when it found one. */
export async function historyPage(c: EngineCore, transport: ReceiptTransport): Promise<boolean> {
  const request = c.sweeper.next(trackingOf(c));
  if (!request || !transport.getIntentHistoryLite) return false;
  const controller = new AbortController();
  c.inFlight.set('', { kind: 'batch', controller });
  try {
    const res = await transport.getIntentHistoryLite(request, { signal: controller.signal, timeoutMs: 15_000 });
    let found = false;
    for (const row of c.sweeper.answer(res)) {
      if (c.mirror.get(row.intentId)?.phase !== 'tracking') continue;
      // Final for sure: a check of this intent still in flight has nothing more to tell.
      c.inFlight.get(row.intentId)?.controller.abort();
      found = (await record(c, row.intentId, row.receipt, undefined, undefined)) || found;
    }
    return found;
  } catch (err) {
    c.sweeper.reset();
    const meaning = errorMeaning(err);
    if (meaning === 'rate-limited') await rateLimited(c, err);
    else if (meaning === 'key-rejected' || meaning === 'origin-rejected') await keyRejected(c, meaning);
    // Other failures of a page: the individual checks still run.
    return false;
  } finally {
    c.inFlight.delete('');
  }
}

/**
 * Throws {@link ForeignReceiptError} (logged) when an answer's receipt is not about the intent asked: it is never
 * recorded, and the intent is asked again after a back-off.
 */
function checkFor(intentId: string, answered: string, operation: string): void {
  if (isReceiptFor(intentId, answered)) return;
  console.warn(`tracker: ${operation} answered about another intent; ignored`, { asked: intentId, answered });
  throw new ForeignReceiptError(intentId, answered);
}

/** Notes that an answer showed state `key` for `intentId`; true when it is a return to an earlier state (flapping). */
function seenLately(c: EngineCore, intentId: string, key: string): boolean {
  const { seen, returned } = rememberState(c.seen.get(intentId) ?? [], key);
  c.seen.set(intentId, seen);
  return returned;
}

/**
 * Writes an answer (already checked to be about `intentId`); only a final status moves the intent to `final`, with
 * its notification pending — a `done` flag alone never does. True when it was news; an answer that only brings
 * back a state seen before (`flapping`) is not, and does not make the tracker busy; nor is one past the intent's
 * news pace (`./news-pace`): it is written with the pause of an unchanged answer before the next long-poll.
 */
export async function record(
  c: EngineCore,
  intentId: string,
  receipt: IntentReceipt,
  states: TransactionStatus[] | undefined,
  nextCheckAt: number | undefined,
  flapping = false,
): Promise<boolean> {
  const now = c.clock.now();
  c.heard = true;
  c.serviceClock.observeAtLeast(Date.parse(receipt.updatedAt ?? ''));
  // What the last answer confirmed is taken back as this one arrives: only this one confirms again, when written and
  // not stale, or, refused its write, when it showed the status believed (a stale answer, or another status whose
  // write the store refused, leaves the watchdogs nothing to act on until the next answer).
  c.confirmedAt.delete(intentId);
  if (receipt.status !== 'COMMITTED') c.expiryVotes.delete(intentId);
  let news = false;
  let stale = false;
  const written = await writePaced(c, intentId, (t) => {
    stale = t?.status !== undefined && isStatusBehind(receipt.status, t.status);
    const a = answered(t, receipt, states, now, nextCheckAt);
    news = a.next !== undefined && a.news && !flapping;
    if (!news || a.next?.phase !== 'tracking' || c.newsPace.admit(intentId, receipt.status)) return a.next;
    news = false;
    return { ...a.next, nextCheckAt: Math.max(a.next.nextCheckAt ?? 0, now + c.tuning.minWaitCycleMs) };
  }).catch((err: unknown) => {
    // Refused (a full disk): an answer that showed the very status believed still confirms it, or on a disk that
    // stays full no stuck warning would ever come. One that showed another status confirms nothing.
    const t = c.mirror.get(intentId);
    if (t?.phase === 'tracking' && t.status === receipt.status) c.confirmedAt.set(intentId, c.clock.monotonic());
    throw err;
  });
  if (news) c.busyUntil = now + c.tuning.busyForMs;
  if (written && !stale) c.confirmedAt.set(intentId, c.clock.monotonic());
  if (written?.phase !== 'tracking') {
    c.confirmedAt.delete(intentId);
    c.expiryVotes.delete(intentId);
    c.seen.delete(intentId);
    c.newsPace.forget(intentId);
  }
  // Not awaited: the request's slot is free again while the notification is shown (it may be held for grouping).
  if (written?.notification === 'pending') void c.delivery.deliver(intentId);
  return news;
}

/**
 * Records an error: tracker-wide pauses, the NotFound grace, or a back-off of this intent (a 429 pauses the tracker
 * for its Retry-After, at least one back-off step, and the intent is asked again as that pause ends: no back-off of
 * its own).
 */
async function fail(c: EngineCore, intentId: string, err: unknown): Promise<void> {
  const now = c.clock.now();
  const meaning = errorMeaning(err);
  if (meaning === 'key-rejected' || meaning === 'origin-rejected') {
    await keyRejected(c, meaning);
    return;
  }
  if (meaning === 'rate-limited') await rateLimited(c, err);
  const failure: Failure = {
    notFound: meaning === 'not-found',
    kind: err instanceof SvcApiError || err instanceof ForeignReceiptError ? err.kind : 'unknown',
    message: err instanceof Error ? err.message : String(err),
    // A 429's Retry-After is the tracker-wide pause's (kept across workers, served as docs/time.md says), not this
    // intent's back-off: a next worker that moves times back after a clock jump would wait it whole again. Nor does
    // the intent back off on its own: the pause is the whole wait (a jittered back-off on top left it unasked past S(N)).
    retryAfterMs: meaning === 'rate-limited' ? 0 : retryAfterOf(err),
    random: (c.deps.random ?? Math.random)(),
    rateLimited: meaning === 'rate-limited',
  };
  await writePaced(c, intentId, (t) => failed(t, failure, now, c.tuning, c.startedAt));
}

/**
 * Writes `intentId` through the mirror; when the store refuses, the pace the record would have kept (its pause before
 * the next long-poll, its back-off) is held in memory (`EngineCore.heldPace`) and the refusal rethrown.
 */
async function writePaced(c: EngineCore, intentId: string, fn: (t: TrackedIntent | undefined) => TrackedIntent | undefined) {
  // `fn` runs once, on the stored copy with any pace held before (the store lacks it): what it returns is written, or
  // held when the write is refused. A store that refuses before reading never ran it: then it runs on the copy in memory.
  let intended: { t: TrackedIntent | undefined } | undefined;
  const run = (t: TrackedIntent | undefined) => {
    intended = { t: fn(pacedAsHeld(c, t)) };
    return intended.t;
  };
  try {
    const written = await c.mirror.write(intentId, run);
    c.heldPace.delete(intentId);
    return written;
  } catch (err) {
    const t = (intended ?? { t: run(c.mirror.get(intentId)) }).t;
    if (t?.phase === 'tracking') {
      const { lastCheckedAt, nextCheckAt, retry, lastError } = t;
      c.heldPace.set(intentId, { lastCheckedAt, nextCheckAt, retry, lastError });
    }
    throw err;
  }
}

/** 429: no new request anywhere before Retry-After (at least one back-off step). */
async function rateLimited(c: EngineCore, err: unknown): Promise<void> {
  await c.pause.pauseFor(Math.max(c.tuning.backoffBaseMs, retryAfterOf(err)));
}

/** A rejected key or origin: the requests in flight are ended, and everything pauses until the settings change. */
export async function keyRejected(c: EngineCore, kind: 'key-rejected' | 'origin-rejected'): Promise<void> {
  for (const [id, f] of c.inFlight) if (id !== '') f.controller.abort();
  await c.pause.keyRejected(kind);
}

/** Retry-After of a 429 in ms (0 when absent). */
function retryAfterOf(err: unknown): number {
  return err instanceof SvcServiceError && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : 0;
}
