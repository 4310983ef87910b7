/**
 * The tracker: one WaitIntentReceipt loop (spec §4.1) per tracked intent that is not final, with every answer
 * persisted before anything else happens, and exactly one notification per intent that reaches a notifying final
 * status.
 *
 * Pure logic: the clock, the transport (Svc client), the store and the notifier are injected, so the engine runs
 * the same in the service worker and in unit tests with virtual time.
 *
 * Exactly-once notifications across worker restarts: the final status and `notification: 'pending'` are written
 * in one record update; the notification is then created with an id derived from the intentId and the record is
 * moved to `shown`. A worker that dies between the two finds the record `pending` on start-up and asks the notifier
 * whether that notification already exists before showing it.
 *
 * Connections: at most `maxConcurrent` (default 4) requests are in flight at once, whatever the number of loops,
 * so that the popup's own calls never queue behind long-polls (Chromium allows 6 per host). Loops take turns in
 * FIFO order.
 */
import {
  SvcApiError,
  SvcServiceError,
  isKeyRejected,
  isNotFound,
  isOriginRejected,
  isRateLimited,
} from '../api/errors';
import {
  FINAL_INTENT_STATUSES,
  type GetIntentReceiptRequest,
  type GetIntentReceiptResponse,
  type IntentReceipt,
  type TransactionStatus,
  type WaitIntentReceiptRequest,
  type WaitIntentReceiptResponse,
} from '../api/schemas';
import type { CallOptions } from '../api/client';
import type { IntentStore, TrackedIntent, TrackingError } from '../store';
import { Semaphore } from './semaphore';

/** The two operations the tracker needs; SvcClient implements them. */
export interface ReceiptTransport {
  waitIntentReceipt(request: WaitIntentReceiptRequest, options?: CallOptions): Promise<WaitIntentReceiptResponse>;
  getIntentReceipt(request: GetIntentReceiptRequest, options?: CallOptions): Promise<GetIntentReceiptResponse>;
}

/** Time source. `sleep` resolves after `ms` milliseconds, or early (without throwing) when `signal` aborts. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Shows desktop notifications. Ids are stable per intent so a shown notification can be found again. */
export interface Notifier {
  /** Shows the notification for an intent that reached a notifying final status; resolves with what it said. */
  show(intent: TrackedIntent): Promise<{ title: string; message: string } | undefined>;
  /** True when a notification for this intent is already on screen (used when recovering `pending` records). */
  exists(intentId: string): Promise<boolean>;
}

/** Dependencies of the tracker. */
export interface TrackerDeps {
  store: IntentStore;
  /** The transport for the current settings, or undefined while the extension is not configured. */
  transport(): Promise<ReceiptTransport | undefined>;
  notifier: Notifier;
  clock: Clock;
  /** Random source in [0, 1) for back-off jitter (tests inject a fixed one). */
  random?: () => number;
  /** Called after any tracked record changed (e.g. to tell an open popup). */
  onChange?: (intentId: string) => void;
  /** Called when a key or origin is rejected: the whole tracker pauses until settings change. */
  onKeyRejected?: (error: TrackingError) => void;
  /** Most requests in flight at once (default 4). */
  maxConcurrent?: number;
  /** Client time-out of one WaitIntentReceipt call in ms (default 150 000: longer than any usual server wait). */
  waitTimeoutMs?: number;
  /** Back-off: first delay cap in ms (default 1 000) and largest delay in ms (default 60 000). */
  backoffBaseMs?: number;
  backoffCapMs?: number;
}

/** Statuses that raise a desktop notification. */
export const NOTIFYING_STATUSES: readonly string[] = ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED'];

/** True when no more progress is expected for an intent in this status. */
export function isFinalStatus(status: string | undefined): boolean {
  return status !== undefined && FINAL_INTENT_STATUSES.includes(status);
}

/**
 * Back-off delay in ms after `attempt` consecutive failures (1-based): full jitter,
 * `random × min(cap, base × 2^(attempt-1))`, at least 250 ms; never less than `retryAfterMs` when given.
 */
export function backoffDelay(attempt: number, random: number, baseMs: number, capMs: number, retryAfterMs = 0): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.max(250, Math.round(random * ceiling), retryAfterMs);
}

/** Result of adding an intent. */
export type TrackResult = { added: boolean; intent: TrackedIntent };

/** The tracking engine. Create one per worker instance; call {@link Tracker.resume} on every start-up. */
export class Tracker {
  readonly #deps: TrackerDeps;
  readonly #slots: Semaphore;
  readonly #loops = new Map<string, AbortController>();
  readonly #delivering = new Set<string>();
  #inFlight = 0;
  #stopped = false;

  constructor(deps: TrackerDeps) {
    this.#deps = deps;
    this.#slots = new Semaphore(deps.maxConcurrent ?? 4);
  }

  /** True while at least one request to the service is in flight (the worker must be kept alive). */
  get busy(): boolean {
    return this.#inFlight > 0;
  }

  /** Number of requests in flight now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** intentIds whose loop is running in this engine instance. */
  get running(): string[] {
    return [...this.#loops.keys()];
  }

  /**
   * Starts tracking `intentId` (already validated). Idempotent: an intent already tracked is left as it is, except
   * that one stopped on NotFound or a rejected key is tried again.
   */
  async track(intentId: string): Promise<TrackResult> {
    let added = false;
    const intent = await this.#deps.store.update(intentId, (current) => {
      if (current) {
        return current.phase === 'not-found' || current.phase === 'paused'
          ? { ...current, phase: 'tracking', retry: undefined }
          : undefined;
      }
      added = true;
      return {
        intentId,
        addedAt: this.#deps.clock.now(),
        lastStates: [],
        phase: 'tracking',
        notification: 'none',
      };
    });
    this.#changed(intentId);
    this.#start(intentId);
    return { added, intent: intent as TrackedIntent };
  }

  /** Stops tracking and forgets the intent. */
  async remove(intentId: string): Promise<void> {
    this.#loops.get(intentId)?.abort();
    this.#loops.delete(intentId);
    await this.#deps.store.remove(intentId);
    this.#changed(intentId);
  }

  /**
   * Retries now: clears the back-off of one intent (or of all when omitted), resumes paused and not-found ones, and
   * restarts their loops.
   */
  async retryNow(intentId?: string): Promise<void> {
    const ids = intentId ? [intentId] : (await this.#deps.store.list()).map((t) => t.intentId);
    for (const id of ids) {
      await this.#deps.store.update(id, (t) =>
        t && t.phase !== 'final' ? { ...t, phase: 'tracking', retry: undefined } : undefined,
      );
      this.#loops.get(id)?.abort();
      this.#loops.delete(id);
      this.#changed(id);
    }
    await this.resume();
  }

  /**
   * Start-up: shows notifications left `pending` by a previous worker, and starts a loop for every intent that is
   * being tracked and has none in this engine. Safe to call any number of times (alarms, messages, start-up events).
   */
  async resume(): Promise<void> {
    if (this.#stopped) return;
    const all = await this.#deps.store.list();
    for (const intent of all) {
      if (intent.notification === 'pending') void this.#deliver(intent.intentId);
      if (intent.phase === 'tracking') this.#start(intent.intentId);
    }
  }

  /** Gets the current receipt once (GetIntentReceipt, spec §4.2) and records it like a wait answer would. */
  async refresh(intentId: string): Promise<TrackedIntent | undefined> {
    const transport = await this.#deps.transport();
    if (!transport) return this.#deps.store.get(intentId);
    await this.#slots.acquire();
    this.#inFlight++;
    try {
      const res = await transport.getIntentReceipt({ intentId }, { timeoutMs: 15_000 });
      await this.#record(intentId, res.intentReceipt, undefined);
    } catch (err) {
      await this.#fail(intentId, err);
    } finally {
      this.#inFlight--;
      this.#slots.release();
    }
    return this.#deps.store.get(intentId);
  }

  /** Stops every loop (worker teardown in tests). The engine cannot be restarted; build a new one. */
  stop(): void {
    this.#stopped = true;
    for (const c of this.#loops.values()) c.abort();
    this.#loops.clear();
  }

  #changed(intentId: string): void {
    this.#deps.onChange?.(intentId);
  }

  #start(intentId: string): void {
    if (this.#stopped || this.#loops.has(intentId)) return;
    const controller = new AbortController();
    this.#loops.set(intentId, controller);
    void this.#loop(intentId, controller.signal)
      .catch((err) => console.error('tracker loop crashed', intentId, err instanceof Error ? err.message : err))
      .finally(() => {
        if (this.#loops.get(intentId) === controller) this.#loops.delete(intentId);
      });
  }

  async #loop(intentId: string, signal: AbortSignal): Promise<void> {
    const { clock, store } = this.#deps;
    while (!signal.aborted) {
      const intent = await store.get(intentId);
      if (!intent || intent.phase !== 'tracking') return;
      const wait = intent.retry ? intent.retry.nextAt - clock.now() : 0;
      if (wait > 0) {
        await clock.sleep(wait, signal);
        continue;
      }
      const transport = await this.#deps.transport();
      if (!transport) {
        await store.update(intentId, (t) =>
          t
            ? {
                ...t,
                lastError: { kind: 'not-configured', message: 'Set the service URL and access key in the options.', at: clock.now() },
              }
            : undefined,
        );
        this.#changed(intentId);
        return;
      }
      if (!(await this.#slots.acquire(signal))) return;
      this.#inFlight++;
      let response: WaitIntentReceiptResponse | undefined;
      let failure: unknown;
      try {
        response = await transport.waitIntentReceipt(
          { intentId, lastReceiptStates: intent.lastStates },
          { signal, timeoutMs: this.#deps.waitTimeoutMs ?? 150_000 },
        );
      } catch (err) {
        failure = err;
      } finally {
        this.#inFlight--;
        this.#slots.release();
      }
      if (signal.aborted) return;
      if (response) {
        await this.#record(intentId, response.intentReceipt, response.receiptStates ?? undefined, response.done);
      } else if (failure instanceof SvcApiError && failure.kind === 'timeout') {
        // The server held the wait longer than our time-out: not an error, just ask again.
        await store.update(intentId, (t) => (t ? { ...t, lastCheckedAt: clock.now() } : undefined));
      } else {
        await this.#fail(intentId, failure);
      }
    }
  }

  /** Persists an answer; moves to final (and notification pending) when the status is final. */
  async #record(intentId: string, receipt: IntentReceipt, states: TransactionStatus[] | undefined, done = false): Promise<void> {
    const now = this.#deps.clock.now();
    const final = done || isFinalStatus(receipt.status);
    const written = await this.#deps.store.update(intentId, (t) => {
      if (!t) return undefined;
      const becameFinal = final && t.phase !== 'final';
      return {
        ...t,
        receipt,
        status: receipt.status,
        lastStates: states ?? t.lastStates,
        lastCheckedAt: now,
        lastError: undefined,
        retry: undefined,
        phase: final ? 'final' : t.phase === 'final' ? 'final' : 'tracking',
        notification:
          becameFinal && t.notification === 'none' && NOTIFYING_STATUSES.includes(receipt.status) ? 'pending' : t.notification,
      };
    });
    this.#changed(intentId);
    if (written?.notification === 'pending') await this.#deliver(intentId);
  }

  /** Records an error: stops on NotFound, pauses on a rejected key, otherwise backs off. */
  async #fail(intentId: string, err: unknown): Promise<void> {
    const { clock, store } = this.#deps;
    const now = clock.now();
    const message = err instanceof Error ? err.message : String(err);
    if (isNotFound(err)) {
      await store.update(intentId, (t) =>
        t
          ? {
              ...t,
              phase: t.phase === 'final' ? 'final' : 'not-found',
              retry: undefined,
              lastError: { kind: 'not-found', message: 'The service does not know this intent ID (NotFound).', at: now },
            }
          : undefined,
      );
    } else if (isKeyRejected(err) || isOriginRejected(err)) {
      const kind = isKeyRejected(err) ? 'key-rejected' : 'origin-rejected';
      const error: TrackingError = {
        kind,
        message:
          kind === 'key-rejected'
            ? `The service rejected the access key (${(err as SvcServiceError).errorName}). Update it in the options.`
            : 'The access key is not allowed from this extension (InvalidOrigin). Update it in the options.',
        at: now,
      };
      await store.update(intentId, (t) => (t ? { ...t, phase: t.phase === 'final' ? 'final' : 'paused', retry: undefined, lastError: error } : undefined));
      this.#deps.onKeyRejected?.(error);
    } else {
      const retryAfterMs = isRateLimited(err) && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : 0;
      await store.update(intentId, (t) => {
        if (!t) return undefined;
        const attempt = (t.retry?.attempt ?? 0) + 1;
        const delay = backoffDelay(
          attempt,
          (this.#deps.random ?? Math.random)(),
          this.#deps.backoffBaseMs ?? 1000,
          this.#deps.backoffCapMs ?? 60_000,
          retryAfterMs,
        );
        return {
          ...t,
          retry: { attempt, nextAt: now + delay },
          lastError: { kind: err instanceof SvcApiError ? err.kind : 'unknown', message, at: now },
        };
      });
    }
    this.#changed(intentId);
  }

  /** Shows the pending notification of an intent once, then records it as shown. */
  async #deliver(intentId: string): Promise<void> {
    if (this.#delivering.has(intentId)) return;
    this.#delivering.add(intentId);
    try {
      const intent = await this.#deps.store.get(intentId);
      if (!intent || intent.notification !== 'pending') return;
      const content = (await this.#deps.notifier.exists(intentId)) ? undefined : await this.#deps.notifier.show(intent);
      await this.#deps.store.update(intentId, (t) =>
        t ? { ...t, notification: 'shown', notifiedAt: this.#deps.clock.now(), ...(content ? { notified: content } : {}) } : undefined,
      );
      this.#changed(intentId);
    } catch (err) {
      console.error('notification failed', intentId, err instanceof Error ? err.message : err);
    } finally {
      this.#delivering.delete(intentId);
    }
  }
}
