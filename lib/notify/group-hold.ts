/**
 * The grouping of final notifications for one worker life (`./decide`'s rule, docs/notifications.md "Grouping"): which
 * final jobs the outbox's runs leave out (`./delivery`) until the flush that lets them go together, and when that flush
 * runs. Timed on the monotonic clock, so that no jump of the wall clock holds a notification for the length of the
 * jump. In memory only: after a restart the held jobs go at once, together.
 */
import { type GroupTiming, type GroupWindow, groupFlushAt } from './decide';

/** What the grouping uses: its lengths (ms), the monotonic clock (ms) and a timer (`fn` after `ms`). */
export interface GroupHoldDeps extends GroupTiming {
  /** Monotonic time (ms): the grouping window is timed on it. */
  monotonic: () => number;
  groupTimer: (fn: () => void, ms: number) => void;
}

/** The held final jobs and the window; `flushed` is called when a flush lets them go (the delivery's run). */
export class GroupHold {
  readonly #deps: GroupHoldDeps;
  readonly #flushed: () => void;
  readonly #keys = new Set<string>();
  /** Jobs that go with the held finals (a progress notification to clear once its final shows): not counted in them. */
  readonly #along = new Set<string>();
  #window: GroupWindow = { endsAt: 0, quietSpent: false };
  #flushToken = 0;
  /** When the flush set runs (monotonic ms), undefined when none is set. */
  #armedAt: number | undefined;

  /** @param deps see {@link GroupHoldDeps} @param flushed runs the outbox once a flush let the held jobs go */
  constructor(deps: GroupHoldDeps, flushed: () => void) {
    this.#deps = deps;
    this.#flushed = flushed;
  }

  /** The keys of the jobs held for the next flush: the finals, and what goes along with them. */
  get keys(): ReadonlySet<string> {
    return this.#along.size === 0 ? this.#keys : new Set([...this.#keys, ...this.#along]);
  }

  /**
   * Holds the job `key` out of the runs until the next flush, along with the held finals, without counting it among
   * them (the grouping rule counts finals): a progress notification cleared when its final, held, shows. {@link
   * GroupHold.drop} undoes it.
   */
  holdAlong(key: string): void {
    this.#along.add(key);
  }

  /** Undoes {@link GroupHold.holdAlong} of `key` (its write was refused). */
  drop(key: string): void {
    this.#along.delete(key);
  }

  /** The grouping window as it stands (to undo {@link GroupHold.hold}). */
  get window(): GroupWindow {
    return this.#window;
  }

  /**
   * Decides when the final job `key`, shown now, goes (`./decide`'s grouping rule): at once (undefined), or held out
   * of the runs until the flush it returns (`at`: monotonic ms; {@link GroupHold.arm}). A finish that comes when a
   * flush is due but has not run yet (its timer late, or due this very ms) goes with that flush, not alone.
   */
  hold(key: string): { at: number; early: boolean } | undefined {
    const t = this.#deps.monotonic();
    const g = groupFlushAt(this.#window, this.#keys.size, t, this.#deps);
    this.#window = g.window;
    if (g.at <= t && this.#keys.size === 0) return undefined;
    this.#keys.add(key);
    return { at: g.at, early: g.early };
  }

  /**
   * Undoes {@link GroupHold.hold} of `key` (its job could not be written): the window back to `before`, unless a flush
   * changed it since the hold (`held`: the window the hold left), whose spent quiet flush stands.
   */
  unhold(key: string, before: GroupWindow, held: GroupWindow): void {
    this.#keys.delete(key);
    if (this.#window === held) this.#window = before;
  }

  /**
   * Sets the flush for `f.at` (monotonic ms, however long the job's write took). A quiet flush (`f.early`) replaces the
   * one set, later or not: it goes once none has come for the quiet time. Any other never puts off a flush already set
   * for earlier, so that finishes that keep coming when a flush is due cannot hold it back. An early flush that finds
   * the window's one quiet flush spent (another ran while this job was written) waits for the window's end instead.
   */
  arm(f: { at: number; early: boolean }): void {
    if (!f.early && this.#armedAt !== undefined && this.#armedAt <= f.at) return;
    const token = ++this.#flushToken;
    this.#armedAt = f.at;
    const run = () => {
      if (token !== this.#flushToken) return;
      this.#armedAt = undefined;
      if (f.early && this.#window.quietSpent && this.#deps.monotonic() < this.#window.endsAt)
        return this.arm({ at: this.#window.endsAt, early: false });
      if (f.early) this.#window = { ...this.#window, quietSpent: true };
      this.#keys.clear();
      this.#along.clear();
      this.#flushed();
    };
    this.#deps.groupTimer(run, Math.max(0, f.at - this.#deps.monotonic()));
  }
}
