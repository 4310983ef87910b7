/**
 * The 429 holds a restarted worker keeps (docs/tracking.md "Faults", docs/time.md "The Retry-After pause across
 * workers"): a windows of the oracle about every intent (test/world/oracle.ts).
 *
 * The worker holds a 429's pause until min(its length, 60 s) has been served by running workers *as written down*:
 * what is left is written in the tracker state every 10 s while the pause holds, and the pause is forgotten by a write
 * at its end. So a next worker holds again, from its start, what the state it reads says is left:
 * - a life may leave up to 10 s served unwritten (its last checkpoint), also a life that died in the write of the
 *   end itself (at the very instant the pause was served whole);
 * - while IndexedDB refuses the tracker state's writes (the settings database, or its `tracker-state` key), nothing
 *   of what is served is written, nor the end; the worker writes it again once the store accepts, within 10 s
 *   (`TrackerPause.flush`). A life that dies before then leaves what it served since the refusal began unwritten.
 */
import type { WireEntry } from './network';

/** The longest part of a hold a restarted worker serves again: min(length, 60 s) (docs/tracking.md "Faults"). */
const HOLD_SERVED_MS = 60_000;
/** The longest hold the worker keeps (lib/api/budget-limits.ts MAX_HOLD_MS, stated as 1 hour). */
const HOLD_CAP_MS = 3_600_000;
/** What is left of a hold is written down every 10 s, and a refused write is tried again 10 s later. */
const HOLD_WRITTEN_EVERY_MS = 10_000;

/** A span (true time, ms) during which IndexedDB refuses to write the tracker state. */
export interface StateRefusal {
  from: number;
  to: number;
}

/** The refusals merged into stretches, in order. */
function stretches(refused: readonly StateRefusal[]): StateRefusal[] {
  const out: StateRefusal[] = [];
  for (const r of [...refused].sort((a, b) => a.from - b.from)) {
    const last = out.at(-1);
    if (last && r.from <= last.to) last.to = Math.max(last.to, r.to);
    else out.push({ ...r });
  }
  return out;
}

/**
 * The windows (true time, ms) in which a restarted worker may still hold a 429's pause: after each death of a life
 * that had not written the pause's end, from the next start for what that life's predecessors and itself left
 * unwritten. `refused`: when the tracker state's writes are refused (the settings database's write and quota
 * refusals).
 */
export function keptHolds(
  wire: readonly WireEntry[],
  deaths: ReadonlyArray<{ at: number; kind: string; restartAt?: number }>,
  refused: readonly StateRefusal[] = [],
): Array<{ from: number; to: number; why: string }> {
  const out: Array<{ from: number; to: number; why: string }> = [];
  const inOrder = deaths.filter((d) => d.kind !== 'end').sort((a, b) => a.at - b.at);
  const spans = stretches(refused);
  /** The refused stretch whose writes are not yet made again at `t` (from its start until 10 s after its end). */
  const unwrittenAt = (t: number) => spans.find((s) => s.from <= t && t < s.to + HOLD_WRITTEN_EVERY_MS);
  for (const w of wire) {
    if (w.holdMs === undefined || w.entry.end === undefined) continue;
    // What this life holds from `aliveFrom` (at most: each earlier death may have left 10 s unwritten).
    let left = Math.min(w.holdMs, HOLD_SERVED_MS);
    let aliveFrom = w.entry.end;
    for (const death of inOrder) {
      if (death.at < aliveFrom) continue;
      const endAt = aliveFrom + left;
      // The end is written as it comes, or once the store accepts again: then no later worker holds any of it.
      if (endAt < death.at) {
        const refusal = spans.find((s) => s.from <= endAt && endAt < s.to);
        if ((refusal ? refusal.to + HOLD_WRITTEN_EVERY_MS : endAt) < death.at) break;
      }
      if (death.restartAt === undefined) break;
      const refusal = unwrittenAt(death.at);
      const writtenUntil = refusal ? Math.max(aliveFrom, Math.min(refusal.from, death.at)) : death.at;
      left = left - Math.min(left, writtenUntil - aliveFrom) + HOLD_WRITTEN_EVERY_MS;
      out.push({ from: death.restartAt, to: death.restartAt + left, why: 'a 429 hold kept by the next worker' });
      aliveFrom = death.restartAt;
    }
  }
  return out;
}

/**
 * A kept hold lengthened by the user's wall clock going back while no worker kept it written (docs/simulation.md "The
 * fault table", **stepped hold**): the next worker reads what is left of the hold on its wall clock, and nothing it can
 * read shows a step back taken after the dying worker last wrote the hold down (its records are not ahead of it; the
 * hold forbids asking the service's time). That write is at most 10 s before the death (what is left is written every
 * 10 s), or before the tracker state's writes were refused (`refused`, as {@link keptHolds}), never before the 429;
 * the wall clock then read at most `maxSkew(from, to)` (the largest skew in that span, true times in ms). Each death
 * inside the hold whose next worker started with the wall clock further behind the true time than that lengthens the
 * hold by the difference, never past its own length (capped at an hour) from that start. Without `maxSkew`, the skew
 * at the death. Windows about every intent, from that start.
 */
export function steppedBackHolds(
  wire: readonly WireEntry[],
  deaths: ReadonlyArray<{ at: number; kind: string; restartAt?: number; skew?: number; restartSkew?: number }>,
  options: { maxSkew?: (from: number, to: number) => number; refused?: readonly StateRefusal[] } = {},
): Array<{ from: number; to: number; why: string }> {
  const out: Array<{ from: number; to: number; why: string }> = [];
  const inOrder = deaths.filter((d) => d.kind !== 'end').sort((a, b) => a.at - b.at);
  const spans = stretches(options.refused ?? []);
  for (const w of wire) {
    if (w.holdMs === undefined || w.entry.end === undefined) continue;
    const length = Math.min(w.holdMs, HOLD_CAP_MS);
    let end = w.entry.end + length;
    for (const d of inOrder) {
      if (d.at < w.entry.end || d.at >= end || d.restartAt === undefined) continue;
      // The span in which the dying worker last wrote the hold down (and read its wall clock to do it).
      const refusal = spans.find((s) => s.from <= d.at && d.at < s.to + HOLD_WRITTEN_EVERY_MS);
      const writtenFrom = Math.max(w.entry.end, Math.min(d.at - HOLD_WRITTEN_EVERY_MS, refusal?.from ?? d.at));
      const written = options.maxSkew ? Math.max(d.skew ?? 0, options.maxSkew(writtenFrom, d.at)) : (d.skew ?? 0);
      const back = written - (d.restartSkew ?? 0);
      if (!(back > 0)) continue;
      end = Math.min(end + back, d.restartAt + length);
      if (end > d.restartAt)
        out.push({ from: d.restartAt, to: end, why: 'a kept hold lengthened by a clock step back after its last write' });
    }
  }
  return out;
}
