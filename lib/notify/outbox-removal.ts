/**
 * What the outbox keeps of an intent no longer tracked (removed by the user, pruned) or muted: nothing that could still
 * tell of it (N2). Pure, as `./outbox-changes`: each change edits the table it is given and returns it; the time is passed in.
 * The notifier's `forget` applies {@link withoutIntent} at the removal; the delivery (`./outbox-recheck` `dropUntracked`)
 * applies it again, before each run and each summary, to any intent of {@link intentsAwaiting} the tracker no longer
 * holds: that clean-up can be lost (its write refused, its worker dead before it); likewise {@link withMuted} for the
 * intents muted.
 */
import type { NotificationJob } from '../store/outbox';
import { awayContent } from './calm';
import { active, finalKey, goneKey, type Jobs, progressKey, stuckKey } from './outbox-changes';

/**
 * The intent `intentId` is no longer tracked (at `t`, ms): its final, stuck and chain jobs go (the intent may be told
 * again if tracked again); its progress notification is cleared, also one its final was still to turn in place; an
 * away summary not yet tried (or waiting for a retry) leaves it out of its words, or goes when it named only this
 * intent. A final notification that may still be on screen keeps its link for "Open in explorer" (a `gone:` job,
 * done, pruned with the others).
 */
export function withoutIntent(all: Jobs, intentId: string, t: number): Jobs {
  const f = all[finalKey(intentId)];
  if (f?.notificationId && f.explorerUrl) all[goneKey(intentId)] = { ...f, key: goneKey(intentId), state: 'done', reason: 'forgotten' };
  delete all[finalKey(intentId)];
  delete all[stuckKey(intentId)];
  for (const k of Object.keys(all)) if (k.startsWith(`chain:${intentId}:`)) delete all[k];
  const key = progressKey(intentId);
  const p = all[key];
  // A final that was to turn the progress notification into itself, not yet `shown`: the one on screen is cleared.
  const inPlace = f?.replaces && f.state !== 'shown' && f.state !== 'done' ? f.replaces : undefined;
  if (inPlace)
    all[key] = {
      key,
      kind: 'progress',
      intentIds: [intentId],
      attempts: 0,
      at: t,
      ...p,
      notificationId: inPlace,
      state: 'clearing',
      nextAt: t,
    };
  else if (p && active(p)) all[key] = { ...p, state: 'clearing', nextAt: t };
  return withoutLine(all, intentId);
}

/** True when `j` is an away summary not yet on screen for sure (`queued`, or `showing`: its create not known to have shown). */
const awayToCome = (j: NotificationJob) => j.kind === 'away' && (j.state === 'queued' || j.state === 'showing');

/**
 * Every away summary still to come that names `intentId` says the others only (each line's outcome from the job's
 * `statuses`, else its summarised final job), under the same notification id; one that named only it is skipped.
 */
function withoutLine(all: Jobs, intentId: string): Jobs {
  for (const j of Object.values(all)) {
    const at = j.intentIds.indexOf(intentId);
    if (!awayToCome(j) || at < 0) continue;
    const lines = j.intentIds.map((id, i) => ({
      intentId: id,
      status: j.statuses?.[i] ?? all[finalKey(id)]?.status ?? 'UNKNOWN',
      heldAt: j.at,
    }));
    lines.splice(at, 1);
    all[j.key] =
      lines.length > 0
        ? { ...j, intentIds: lines.map((l) => l.intentId), statuses: lines.map((l) => l.status), ...awayContent(lines) }
        : { ...j, state: 'done', reason: 'skipped' };
  }
  return all;
}

/**
 * The intent `intentId` was muted at `t` (ms): its progress notification is cleared; its final job, stuck warning and
 * chain warnings (one held until a snooze or quiet hours end) still queued are skipped; an away summary still to come
 * leaves it out.
 */
export function withMuted(all: Jobs, intentId: string, t: number): Jobs {
  const p = all[progressKey(intentId)];
  if (p && active(p)) all[p.key] = { ...p, state: 'clearing', nextAt: t };
  for (const j of Object.values(all)) {
    const its = j.key === finalKey(intentId) || j.key === stuckKey(intentId) || j.key.startsWith(`chain:${intentId}:`);
    // Not yet on its way to the screen: never shown now.
    if (its && j.state === 'queued') all[j.key] = { ...j, state: 'done', reason: 'skipped' };
  }
  return withoutLine(all, intentId);
}

/**
 * The muted intents among `muted` that a job still to come tells of, which {@link withMuted} would change: a final,
 * stuck or chain job `queued`, or a line of an away summary still to come.
 */
export function mutedAwaiting(all: Jobs, muted: ReadonlySet<string>): string[] {
  const ids = new Set<string>();
  for (const j of Object.values(all)) {
    if (awayToCome(j)) {
      for (const id of j.intentIds) if (muted.has(id)) ids.add(id);
    } else if (j.state === 'queued' && j.kind !== 'info' && muted.has(j.intentIds[0] ?? '')) ids.add(j.intentIds[0]!);
  }
  return [...ids];
}

/** True when a mute could hold back something in `all` (what {@link mutedAwaiting} looks at). */
export const muteMatters = (all: Jobs) => Object.values(all).some((j) => awayToCome(j) || (j.state === 'queued' && j.kind !== 'info'));

/** {@link withoutIntent} for each of `intentIds` at `t` (ms). */
export function withoutIntents(all: Jobs, intentIds: readonly string[], t: number): Jobs {
  for (const id of intentIds) withoutIntent(all, id, t);
  return all;
}

/**
 * The intents that something in the outbox may still tell of: the one of a final, stuck or chain job not yet told
 * (`held`, `queued`, `clearing`, `showing`) or of a progress job not `done`, and every intent of an away summary still
 * to come. What the delivery asks the tracker about before a run.
 */
export function intentsAwaiting(all: Jobs): string[] {
  const ids = new Set<string>();
  for (const j of Object.values(all)) {
    if (j.kind === 'away') {
      if (awayToCome(j)) for (const id of j.intentIds) ids.add(id);
      continue;
    }
    const open = j.kind === 'progress' ? j.state !== 'done' : j.state !== 'shown' && j.state !== 'done';
    if (open && j.kind !== 'info' && j.intentIds[0]) ids.add(j.intentIds[0]);
  }
  return [...ids];
}
