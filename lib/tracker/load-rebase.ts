/**
 * The load's writes of the records (lib/tracker/engine.ts `#rebase`; docs/tracking.md "Faults"): times a previous
 * worker wrote before the user's clock went back between the two lives, moved back together by `shift` and clamped
 * (./tracker-time), written to the store — and not waited for past the load's bound (./load-bound
 * `settledWithin`): a write transaction that never completes would keep the load, and with it every look-up and the
 * worker's start gate, waiting for the whole life. A record whose write is refused, or still pending at the bound, is
 * held in memory (`IntentMirror.hold`): the tracker uses the moved times at once, and the record's next accepted write
 * stores them. Each write moves only a copy whose times are still as read at load (`sameTimes`), so a write that lands
 * after a later one already stored the held copy does not move the times a second time; such a copy (or one a previous
 * life's late write moved) is only clamped at the time of writing, and the mirror takes it.
 */
import type { TrackedIntent } from '../store';
import type { EngineCore } from './engine-core';
import { LOAD_LIMITS, settledWithin } from './load-bound';
import { clampTimes, sameTimes, shiftTimes } from './tracker-time';

/**
 * Moves every record's times back by `shift` (ms, ≥ 0) and clamps them at `now` (ms, the engine's clock), then writes
 * each changed record (quietly: no listener is told). Resolves once every write settled, or at `boundMs` (ms, on the
 * engine's monotonic clock) with the records still pending held in memory. Never rejects.
 */
export async function rebaseRecords(c: EngineCore, shift: number, now: number, boundMs = LOAD_LIMITS.boundMs): Promise<void> {
  const cap = c.tuning.backoffCapMs;
  const rebased = (t: TrackedIntent) => clampTimes(shiftTimes(t, shift), now, cap);
  const pending = new Map<string, TrackedIntent>();
  let gaveUp = false;
  const writes: Promise<void>[] = [];
  for (const t of c.mirror.values()) {
    const next = rebased(t);
    if (next === t) continue;
    pending.set(t.intentId, next);
    // A copy no longer as read (a later write of this life stored the held copy, or a previous life's late write
    // moved it) is not moved again, only clamped at the time it is written: the mirror then takes the store's copy
    // rather than keep the one read at load, whose times may lie a whole jump ahead.
    const write = c.mirror.write(t.intentId, (r) => r && (sameTimes(r, t) ? rebased(r) : clampTimes(r, c.clock.now(), cap)), {
      quiet: true,
    });
    writes.push(
      write.then(
        () => void pending.delete(t.intentId),
        () => {
          pending.delete(t.intentId);
          // Refused (quota, a closed database): held all the same, else the intent would wait for times a whole jump
          // ahead. After the bound it is held already, and a later write may have stored it since: left as it is.
          if (!gaveUp) c.mirror.hold(next);
        },
      ),
    );
  }
  if (writes.length === 0 || (await settledWithin(Promise.all(writes), c.clock, boundMs))) return;
  gaveUp = true;
  for (const next of pending.values()) c.mirror.hold(next);
}
