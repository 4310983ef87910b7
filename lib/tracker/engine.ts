/**
 * The tracker: keeps every tracked intent that is not final under watch, writes every answer before anything else
 * happens, and shows exactly one notification per intent that reaches a notifying final status. The invariants it
 * keeps (I1–I6) are stated in docs/tracking.md "Invariants I1–I6" and checked by the world campaign (`test/world/`).
 *
 * This file is the engine's face: what the worker asks of it, and the load of what a previous worker left. Its parts
 * share one `EngineCore` (./engine-core): `pump` (the watchdogs' pass, the plan of `scheduler`, the timers),
 * `requests` (the checks, history pages, and what their answers and errors write), `pause` (Retry-After, a rejected
 * key), `watchdog-actions` (expiry, stuck), `refresh-waiters`; `policy`, `sweeper`, `watchdogs` and `delivery`
 * decide. The clock, transport, store and notifier are injected, so it runs the same in the worker and on virtual
 * time in tests.
 */
import type { TrackedIntent, TrackerState } from '../store';
import { createCore, type EngineCore } from './engine-core';
import { ActionsAhead, LOAD_LIMITS, patiently, settledWithin } from './load-bound';
import { rebaseRecords } from './load-rebase';
import { loadOrServe, PumpLoop, pump } from './pump';
import { entryRecord, type TrackEntry } from './track-many';
import { aheadMs } from './tracker-time';
import { baselineSet, retried, seen } from './transitions';
import type { TrackerDeps, TrackResult } from './types';

export { PAUSE_CHECKPOINT_MS, PAUSE_HONOURED_MS } from './pause';
export { EXPIRY_ANSWERS } from './watchdog-actions';

/** The tracking engine. Create one per worker instance; call {@link Tracker.resume} on every start-up. */
export class Tracker {
  readonly #c: EngineCore;
  readonly #loop: PumpLoop;
  #stateLoaded: Promise<void> | undefined;
  #loaded = false;
  readonly #ahead = new ActionsAhead(); // users' actions whose load is pending: look-ups are answered after them
  #pauseRebased = false;

  constructor(deps: TrackerDeps) {
    this.#c = createCore(deps);
    this.#loop = new PumpLoop(this.#c, async () => {
      await loadOrServe(this.#c, () => this.#load());
      await pump(this.#c);
    });
    this.#c.kick = () => this.#loop.kick();
    this.#c.wakeAt = (at) => this.#loop.wakeAt(at);
  }

  /** True while at least one request to the service is in flight (the worker must be kept alive). */
  get busy(): boolean {
    return this.#c.inFlight.size > 0;
  }

  /** Number of requests in flight now. */
  get inFlight(): number {
    return this.#c.inFlight.size;
  }

  /** The tracker-wide state: rate-limit pause (its times on the wall clock as it reads now) and rejected key. */
  get state(): TrackerState {
    return this.#c.pause.view;
  }

  /**
   * Starts tracking `intentId` (already validated). Idempotent: an intent already tracked is left as it is, except
   * that one stopped (not found, expired) is tried again. `added` is true only when the intent was not tracked. A list
   * of one ({@link Tracker.trackMany}).
   */
  async track(intentId: string, extra: Pick<TrackedIntent, 'source' | 'estimatedDuration'> = {}): Promise<TrackResult> {
    const [result] = await this.trackMany([{ intentId, extra }]);
    return result as TrackResult;
  }

  /**
   * Tracks a list at once (`entries` validated, intentIds unique; `./track-many.ts` decides each record): one store
   * transaction for all, one pump after. Resolves with `added` and the record per entry, in order; rejects, tracking
   * none, when the store refuses the transaction.
   */
  async trackMany(entries: readonly TrackEntry[]): Promise<TrackResult[]> {
    const c = this.#c;
    await this.#loadForUser();
    const now = c.clock.now();
    const added = new Set<string>();
    for (const e of entries) c.mirror.revive(e.intentId);
    const byId = new Map(entries.map((e) => [e.intentId, e]));
    const ids = [...byId.keys()];
    const written = await c.mirror.writeMany(ids, (id, current) => {
      if (current === undefined) added.add(id);
      return entryRecord(current, byId.get(id) as TrackEntry, now);
    });
    c.kick();
    const intents = new Map(ids.map((id, i) => [id, written[i] ?? c.mirror.get(id)]));
    return entries.map((e) => ({ added: added.has(e.intentId), intent: intents.get(e.intentId) as TrackedIntent }));
  }

  /**
   * Records the ETA baseline of a tracked intent (seconds; lib/eta), found after tracking started. Fields already set
   * are kept; an intent no longer tracked is left alone. When the store refuses the write, the baseline is held in
   * memory (the stuck watchdog reads it at once; the intent's next write stores it) and the error is thrown.
   */
  async setBaseline(intentId: string, baseline: Pick<TrackedIntent, 'estimatedDuration' | 'routeDuration'>): Promise<void> {
    await this.#load();
    const { mirror } = this.#c;
    try {
      await mirror.write(intentId, (t) => baselineSet(t, baseline));
    } catch (err) {
      const next = baselineSet(mirror.get(intentId), baseline);
      if (next) mirror.hold(next);
      throw err;
    }
  }

  /**
   * Stops tracking and forgets the intent: no request for it starts after this, and it is never listed again. Rejects
   * when the store refuses the deletion: the intent is then still tracked (and checked) as before.
   */
  async remove(intentId: string): Promise<void> {
    const c = this.#c;
    await this.#loadForUser();
    c.inFlight.get(intentId)?.controller.abort();
    c.refresh.settle(intentId);
    c.seen.delete(intentId);
    c.newsPace.forget(intentId);
    c.confirmedAt.delete(intentId);
    c.expiryVotes.delete(intentId);
    try {
      await c.mirror.remove(intentId);
    } finally {
      c.kick();
    }
    await c.deps.notifier.forget?.(intentId).catch(() => {});
  }

  /**
   * Retry now: clears back-off and a rejected key, and resumes stopped intents (one, or all when omitted); a
   * rate-limit pause (Retry-After) still holds. Call it when the settings change, too.
   */
  async retryNow(intentId?: string): Promise<void> {
    const c = this.#c;
    await this.#loadForUser();
    // A rejected key is retried; the server's Retry-After still holds.
    await c.pause.retried();
    const ids = intentId ? [intentId] : c.mirror.values().map((t) => t.intentId);
    for (const id of ids) {
      await c.mirror.write(id, (t) => retried(t, c.clock.now()));
    }
    // Requests in flight were sent with the old settings or back-off: send them again now.
    for (const [id, f] of c.inFlight) if (!intentId || id === intentId) f.controller.abort();
    c.nextSweepAt = 0;
    c.nextIndividualAt = 0;
    c.kick();
  }

  /**
   * Start-up and wake-ups: loads the store (first call), shows notifications left `pending` by a previous worker,
   * and schedules checks. Safe to call any number of times (alarms, messages, start-up events).
   */
  async resume(): Promise<void> {
    const c = this.#c;
    if (c.stopped) return;
    await loadOrServe(this.#c, () => this.#load());
    for (const intent of c.mirror.values()) if (intent.notification === 'pending') void c.delivery.deliver(intent.intentId);
    c.kick();
  }

  /** Every tracked intent as the tracker holds it (the store's content, without reading it), newest added first. */
  async list(): Promise<TrackedIntent[]> {
    await this.#ahead.after(() => this.#load());
    return this.#c.mirror.values().sort((a, b) => b.addedAt - a.addedAt);
  }

  /**
   * One tracked intent as the tracker holds it, without copying or sorting the list; undefined when not tracked. While
   * its removal awaits the store, waits for the outcome (a refused removal leaves it tracked).
   */
  async get(intentId: string): Promise<TrackedIntent | undefined> {
    await this.#ahead.after(() => this.#load());
    await this.#c.mirror.removalSettled(intentId);
    return this.#c.mirror.get(intentId);
  }

  /**
   * Marks every finished intent as seen by the user (the popup was opened), without telling listeners: only the
   * badge depends on it. One store transaction (all or none; rejects when the store refuses it). Resolves with how
   * many were marked.
   */
  async markSeen(): Promise<number> {
    await this.#load();
    return this.#c.mirror.writeEach((t) => t.phase === 'final' && !t.seen, seen);
  }

  /**
   * Reads one intent's receipt now (GetIntentReceipt, through the sweeper's slot; a long-poll of that intent is
   * ended first) and resolves with the record once the answer (or the error) is written. An intent not being tracked
   * is returned as it is, without a request.
   */
  async refresh(intentId: string): Promise<TrackedIntent | undefined> {
    const c = this.#c;
    await this.#loadForUser();
    const t = c.mirror.get(intentId);
    if (t?.phase !== 'tracking' || c.stopped) return t;
    const done = c.refresh.wait(intentId);
    const f = c.inFlight.get(intentId);
    if (f?.kind === 'wait') f.controller.abort();
    c.kick();
    await done;
    return c.mirror.get(intentId);
  }

  /** Stops every request and timer (worker teardown in tests). The engine cannot be restarted; build a new one. */
  stop(): void {
    const c = this.#c;
    c.stopped = true;
    this.#loop.stop();
    for (const f of c.inFlight.values()) f.controller.abort();
    c.refresh.settleAll();
  }

  // ---- internals ----

  /** The load for a user's own action: a read that is only slow is waited for up to `USER_LOAD_WAIT_MS` (./load-bound). */
  #loadForUser(): Promise<void> {
    // Once loaded, the very promise every call awaits: no extra turn, so a look-up asked after a removal sees it.
    return this.#loaded ? this.#load() : this.#ahead.add(patiently(() => this.#load(), this.#c.clock));
  }

  #load(): Promise<void> {
    const c = this.#c;
    this.#stateLoaded ??= (async () => {
      // Each read waits at most its bound (./load-bound): one still pending counts as refused for this attempt. The
      // load's writes wait what is left of that bound, so that the whole load resolves within it.
      const deadline = c.clock.monotonic() + LOAD_LIMITS.boundMs;
      const left = () => Math.max(0, deadline - c.clock.monotonic());
      const [intents, state] = await Promise.allSettled([c.reads.intents.attempt(), c.reads.state.attempt()]);
      if (state.status === 'rejected') throw state.reason;
      if (intents.status === 'rejected') {
        // The intents cannot be read (IndexedDB refusing): the Retry-After a previous worker kept holds all the same,
        // moved back by what its own times show, so that no lane sends into it while the load is tried again (I5).
        await this.#rebasePauseAlone(left());
        throw intents.reason;
      }
      await this.#rebase(left());
      this.#loaded = true;
    })().catch((err: unknown) => {
      this.#stateLoaded = undefined;
      throw err;
    });
    return this.#stateLoaded;
  }

  /**
   * The pause a previous worker left, moved back by `shift` ms at `now` (`TrackerPause.rebase`), once; then the
   * worker's listeners learn the state (a Retry-After still running, a rejected key), and the request budget holds it.
   * The pause is moved in memory at once; its write is waited for at most the load's bound (`settledWithin`), and a
   * later write of the state (a checkpoint, the pause's end) stores it if this one never completes.
   */
  async #rebasePause(shift: number, now: number, boundMs: number): Promise<void> {
    if (this.#pauseRebased) return;
    this.#pauseRebased = true;
    await settledWithin(this.#c.pause.rebase(shift, now), this.#c.clock, boundMs);
    this.#c.pause.announce();
  }

  /** {@link Tracker.#rebasePause} with no intents read: the shift is what the pause's own times show. */
  #rebasePauseAlone(boundMs = LOAD_LIMITS.boundMs): Promise<void> {
    const now = this.#c.clock.now();
    return this.#rebasePause(aheadMs([], this.#c.pause.kept, now), now, boundMs);
  }

  /**
   * Times written by a previous worker whose wall clock was ahead of this one's (the clock went back between them) are
   * brought back once, at load: no event in the future, no wait (back-off, Retry-After pause) longer than its own
   * length from now. Within one life the tracker's clock never jumps (lib/tracker/tracker-time.ts). The records and the
   * pause are moved in memory and their writes waited for together at most the load's bound (./load-rebase).
   */
  async #rebase(boundMs: number): Promise<void> {
    const c = this.#c;
    const now = c.clock.now();
    // The clock went back between the two workers: the earlier one's times move back together (their order kept), to
    // end at the latest when this engine started — not at the load, which refused reads may have held up: the
    // grace served since the engine's start (./not-found-grace) would lose that wait.
    const shift = aheadMs(c.mirror.values(), c.pause.kept, Math.min(c.startedAt, now));
    await Promise.all([rebaseRecords(c, shift, now, boundMs), this.#rebasePause(shift, now, boundMs)]);
  }

  /**
   * The service answered another request of the worker with 429 and `Retry-After` (`ms`): the tracker sends nothing
   * before then either, and keeps the pause in its state, so that a restarted worker holds it too.
   */
  async holdOff(ms: number): Promise<void> {
    const c = this.#c;
    // The intents need not be readable to keep the hold (IndexedDB refusing them): the tracker state must be, and
    // is waited for however slow (the pause is set over the state a previous worker left, never under it).
    await this.#load().catch(async () => {
      await c.reads.state.attempt(Number.POSITIVE_INFINITY);
      await this.#rebasePauseAlone();
    });
    await c.pause.pauseFor(ms);
    // The pump serves the pause (its checkpoints) and wakes when it ends.
    c.kick();
  }
}
