/**
 * The tracker-wide state (docs/tracking.md "Faults"; docs/time.md "The Retry-After pause across workers"): the
 * Retry-After pause and a rejected key, kept in the tracker state store so that a restarted worker holds them too.
 * The pause is kept on the engine's steady clock (lib/tracker/tracker-time.ts), stored with how far the wall clock
 * read ahead of it, and handed to listeners on the wall clock.
 */
import { MAX_HOLD_MS } from '../api/budget';
import type { TrackerState, TrackerStateStore, TrackingError } from '../store';
import type { Clock } from '../time/clock';
import { pauseLeftMs, shiftPause } from './tracker-time';

/** While a Retry-After pause holds, what is left of it is written down this often (ms): see {@link TrackerPause.serve}. */
export const PAUSE_CHECKPOINT_MS = 10_000;

/**
 * A Retry-After pause is held at least this long (ms) whatever happens (its own length if shorter); beyond it, a
 * worker whose wall clock went back since the earlier one (so that it cannot tell how long it was not running) resumes
 * rather than hold what may already have ended.
 */
export const PAUSE_HONOURED_MS = 60_000;

/** What the tracker-wide state needs: where it is kept, who is told, the wall clock and the engine's steady clock. */
export interface PauseDeps {
  stateStore?: TrackerStateStore | undefined;
  onStateChange?: ((state: TrackerState) => void) | undefined;
  /** The platform's wall clock (it may jump). */
  wall: Clock;
  /** The engine's steady clock (`steadyClock(wall)`). */
  steady: Clock;
}

/** The tracker-wide state of one engine. */
export class TrackerPause {
  #state: TrackerState = {};
  /** The store refused the last write (steady ms of that try): the state kept there is older than this one. */
  #unsavedSince: number | undefined;
  /** Writes of the state begun, and the latest of them (by that count) the store completed. */
  #saves = 0;
  #landed = 0;

  readonly #deps: PauseDeps;

  constructor(deps: PauseDeps) {
    this.#deps = deps;
  }

  /** The state as kept (its pause on the steady clock). */
  get kept(): TrackerState {
    return this.#state;
  }

  /** The state with its pause on the wall clock as it reads now: what listeners and callers see. */
  get view(): TrackerState {
    return shiftPause(this.#state, this.#wallAhead());
  }

  /** Takes the state a previous worker stored (read at load, before {@link TrackerPause.rebase}). */
  loaded(state: TrackerState | undefined): void {
    if (state) this.#state = state;
  }

  /** Tells listeners the state a previous worker left (a Retry-After still running, a rejected key). */
  announce(): void {
    if (this.#state.pausedUntil !== undefined || this.#state.keyRejected !== undefined) this.#deps.onStateChange?.(this.view);
  }

  /** True while nothing may be sent: a rejected key, or a rate-limit pause. */
  paused(): boolean {
    return this.#state.keyRejected !== undefined || this.left() > 0;
  }

  /** How long (ms) the Retry-After pause still holds: never more than its own length, whatever the wall clock did. */
  left(): number {
    return pauseLeftMs(this.#state, this.#deps.steady.now(), MAX_HOLD_MS);
  }

  /**
   * A previous worker's pause, read at load (`now`, steady ms) after the records' times moved back by `shift` ms
   * (`aheadMs`): no longer than its own length from now, held for sure until min(its length, PAUSE_HONOURED_MS) is
   * served, and after the clock went back no more than that. A refused write keeps the state as read.
   */
  async rebase(shift: number, now: number): Promise<void> {
    const { pausedUntil, pausedAt, pauseServedMs = 0, pauseWallAheadMs = 0 } = this.#state;
    if (pausedUntil === undefined) return;
    const moved = { pausedUntil: pausedUntil - shift, ...(pausedAt === undefined ? {} : { pausedAt: pausedAt - shift }) };
    const steadyLeft = pauseLeftMs(moved, now, MAX_HOLD_MS);
    // Read on the wall clock the earlier worker's read when it wrote the pause too: after an NTP step back inside
    // its life, its steady times ran ahead of the wall clock, and the records do not show it once this worker
    // started later than the step was long. The shorter of the two readings is what is left.
    const wallLeft = Math.min(steadyLeft, pauseLeftMs(shiftPause(this.#state, pauseWallAheadMs), now, MAX_HOLD_MS));
    // Held for sure: until min(its length, PAUSE_HONOURED_MS) of it are served, whatever the wall clock did while
    // no worker ran (time not running is not counted as served).
    const length = pausedAt === undefined ? wallLeft : pausedUntil - pausedAt + pauseServedMs;
    // (A state written before `pauseServedMs` existed says nothing of what was served: none is held for sure.)
    const served = this.#state.pauseServedMs !== undefined;
    const sure = served ? Math.max(0, Math.min(PAUSE_HONOURED_MS, length) - pauseServedMs) : 0;
    // The clock went back: how long no worker ran is unknown, and what was left at the last checkpoint could
    // outlast the service's hold by every death in between; beyond the sure part it is not held.
    const left = Math.max(sure, shift > 0 ? Math.min(wallLeft, sure) : wallLeft);
    if (left === steadyLeft && shift === 0 && (pausedAt === undefined || pausedAt <= now)) {
      // Nothing to write; but this life serves from its own start: the time no worker ran (and a wall clock's step
      // forward meanwhile) is not served, and `serve` counts from `pausedAt`.
      if (pausedAt !== undefined) this.#state = { ...this.#state, pausedAt: now };
      return;
    }
    this.#state = { ...this.#state, pausedAt: now, pausedUntil: now + left };
    await this.#save().catch(() => {});
  }

  /** Sets the state, stores it (rejects when the store refuses) and tells listeners. */
  async set(state: TrackerState): Promise<void> {
    this.#state = state;
    await this.#save();
    this.#deps.onStateChange?.(this.view);
  }

  /** Retry now: a rejected key is cleared; the server's Retry-After still holds, with what was served of it. */
  async retried(): Promise<void> {
    const { keyRejected: _k, ...pause } = this.#state;
    await this.set(this.left() > 0 ? pause : {});
  }

  /**
   * Writes down how much of the Retry-After pause is left (`pausedAt` now, `pausedUntil` that much later), at most every
   * {@link PAUSE_CHECKPOINT_MS} while it holds: a next worker whose wall clock went back (so that it cannot tell how
   * long ago the pause began) then holds only what was left at the last checkpoint, not the whole pause again. A
   * refused write keeps the previous checkpoint.
   */
  async serve(now: number): Promise<void> {
    const { pausedAt, pauseServedMs = 0 } = this.#state;
    if (pausedAt !== undefined && now - pausedAt < PAUSE_CHECKPOINT_MS) return;
    const served = pauseServedMs + Math.max(0, now - (pausedAt ?? now));
    this.#state = { ...this.#state, pausedAt: now, pausedUntil: now + this.left(), pauseServedMs: served };
    await this.#save().catch(() => {});
  }

  /**
   * When (steady ms) what is left of the pause is next to be written down: {@link PAUSE_CHECKPOINT_MS} after the last
   * checkpoint or the pause's start (`now` + that without a pause). The pump wakes by then whatever other wake-up it
   * had set, so that a worker dying at any moment of the pause leaves at most that long served unwritten.
   */
  nextCheckpointAt(now: number): number {
    return (this.#state.pausedAt ?? now) + PAUSE_CHECKPOINT_MS;
  }

  /** The pause has been served whole: it is forgotten, so that no later worker holds any of it again. */
  async ended(): Promise<void> {
    const { pausedUntil: _u, pausedAt: _a, pauseServedMs: _s, pauseReason: _r, pauseWallAheadMs: _w, ...rest } = this.#state;
    await this.set(rest).catch(() => {});
  }

  /** Pauses every request for `ms` (at most {@link MAX_HOLD_MS}) from now, unless a longer pause holds. */
  async pauseFor(ms: number): Promise<void> {
    const length = Math.min(ms, MAX_HOLD_MS);
    if (!(length > 0) || this.left() >= length) return;
    const now = this.#deps.steady.now();
    await this.set({
      ...this.#state,
      pausedUntil: now + length,
      pausedAt: now,
      pauseServedMs: 0,
      pauseReason: 'The service is rate-limiting requests; the tracker slowed down.',
    });
  }

  /** A rejected key or origin pauses everything until the settings change (retryNow). */
  async keyRejected(kind: 'key-rejected' | 'origin-rejected'): Promise<void> {
    const error: TrackingError = {
      kind,
      message:
        kind === 'key-rejected'
          ? 'The service rejected the access key. Tracking is paused until the key is updated in the settings.'
          : 'The access key is not allowed from this extension (InvalidOrigin). Tracking is paused until the settings change.',
      at: this.#deps.steady.now(),
    };
    await this.set({ ...this.#state, keyRejected: error });
  }

  /**
   * Writes the state again when the store refused the last write (at most every {@link PAUSE_CHECKPOINT_MS}): else a
   * pause that ended, or what was served of it, stays unwritten once the store accepts again, and a next worker holds
   * a pause over that has ended. A refusal again waits for the next try.
   */
  async flush(): Promise<void> {
    const since = this.#unsavedSince;
    if (since === undefined || this.#deps.steady.now() - since < PAUSE_CHECKPOINT_MS) return;
    await this.#save().catch(() => {});
  }

  /**
   * Writes the state; a pause with how far the wall clock reads ahead of the steady clock now (`pauseWallAheadMs`):
   * a next worker reads the pause on both clocks ({@link TrackerPause.rebase}), as an NTP step inside this life
   * moved them apart. A refused write is noted for {@link TrackerPause.flush}, and rejects.
   */
  async #save(): Promise<void> {
    const { pauseWallAheadMs: _w, ...state } = this.#state;
    const n = ++this.#saves;
    try {
      await this.#deps.stateStore?.set(state.pausedUntil === undefined ? state : { ...state, pauseWallAheadMs: this.#wallAhead() });
      // A write that completes after a later one did (one past the load's bound, `Tracker.#rebasePause`) put an older
      // state back over it: the state as it is now is written again.
      if (n < this.#landed) void this.#save().catch(() => {});
      this.#landed = Math.max(this.#landed, n);
      // A later write still pending decides; one already refused stays owed (`flush`).
      if (n === this.#saves) this.#unsavedSince = undefined;
    } catch (err) {
      this.#unsavedSince = this.#deps.steady.now();
      throw err;
    }
  }

  /** How far (ms) the wall clock now reads ahead of the steady clock (negative: behind; 0 without a jump). */
  #wallAhead(): number {
    return this.#deps.wall.now() - this.#deps.steady.now();
  }
}
