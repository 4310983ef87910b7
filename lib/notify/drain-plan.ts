/**
 * What one run of the outbox does (`./delivery`): which unfinished jobs are tried now and in which units, whose
 * waiters are told after it, and when the next retry is due. Pure: the time is passed in.
 */
import type { NotificationJob } from '../store/outbox';
import { isDue, type Jobs } from './outbox-changes';

/** True when `j` is unfinished: `queued`, `clearing` or `showing`. */
export const unfinished = (j: NotificationJob) => j.state === 'queued' || j.state === 'clearing' || j.state === 'showing';

/** One unit of a run: queued finals shown together (`batch`), or one step of a job and its `showing` siblings. */
export type DrainUnit =
  | { kind: 'batch'; keys: string[]; jobs: NotificationJob[] }
  | { kind: 'step'; keys: string[]; job: NotificationJob; siblings: NotificationJob[] };

/**
 * The units of a run at `t` (ms), oldest job first: every due unfinished job not held for `grouping` (a progress job
 * only to clear it: its showing is `progress`'s own). Queued finals go first and together (one notification, or one
 * summary of several); a `showing` final goes with the others shown under the same notification id.
 */
export function planDrain(jobs: Jobs, grouping: ReadonlySet<string>, t: number): DrainUnit[] {
  const open = Object.values(jobs)
    .filter((j) => unfinished(j) && !grouping.has(j.key))
    .filter((j) => j.kind !== 'progress' || j.state === 'clearing')
    .sort((a, b) => a.at - b.at);
  const due = open.filter((j) => isDue(j, t));
  const batch = due.filter((j) => j.kind === 'final' && j.state === 'queued' && !j.replaces);
  const seen = new Set<string>();
  const units: DrainUnit[] = [];
  if (batch.length > 0) units.push({ kind: 'batch', keys: batch.map((j) => j.key), jobs: batch });
  for (const j of due) {
    if (batch.includes(j) || seen.has(j.key)) continue;
    const siblings =
      j.state === 'showing' && j.kind === 'final' && !j.replaces
        ? due.filter((o) => o.kind === 'final' && o.state === 'showing' && o.notificationId === j.notificationId)
        : [];
    for (const o of siblings) seen.add(o.key);
    units.push({ kind: 'step', keys: siblings.length > 0 ? siblings.map((o) => o.key) : [j.key], job: j, siblings });
  }
  return units;
}

/**
 * The keys among `waiting` whose waiters are told after a run: the job settled, gone, skipped or waiting for its
 * retry (not due at `now()`); never one held for `grouping`. In the order given.
 */
export function settledKeys(waiting: Iterable<string>, after: Jobs, grouping: ReadonlySet<string>, now: () => number): string[] {
  const out: string[] = [];
  for (const k of waiting) {
    const j = after[k];
    if (grouping.has(k)) continue;
    if (!j || !unfinished(j) || !isDue(j, now())) out.push(k);
  }
  return out;
}

/** The earliest retry still to come (ms): the `nextAt` of the unfinished jobs not due at `now()`; Infinity when none. */
export function nextRetryAt(after: Jobs, now: () => number): number {
  const later = Object.values(after)
    .filter((j) => unfinished(j) && !isDue(j, now()))
    .map((j) => j.nextAt);
  return Math.min(...later);
}
