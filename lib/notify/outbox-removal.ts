/**
 * What the outbox keeps of an intent no longer tracked (removed by the user, pruned): nothing that could still tell of
 * it (N2). Pure, as `./outbox-changes`: each change edits the table it is given and returns it; the time is passed in.
 * The notifier's `forget` applies {@link withoutIntent} at the removal; the delivery (`./delivery` `dropUntracked`)
 * applies it again, before each run and each summary, to any intent of {@link intentsAwaiting} the tracker no longer
 * holds: that clean-up can be lost (its write refused, its worker dead before it).
 */
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
  for (const j of Object.values(all)) {
    if (j.kind !== 'away' || j.state !== 'queued' || !j.intentIds.includes(intentId)) continue;
    const rest = j.intentIds.filter((id) => id !== intentId);
    // Each line's outcome is its summarised final job's (kept with the told ones).
    const words = awayContent(rest.map((id) => ({ intentId: id, status: all[finalKey(id)]?.status ?? 'UNKNOWN', heldAt: j.at })));
    all[j.key] = rest.length > 0 ? { ...j, intentIds: rest, ...words } : { ...j, state: 'done', reason: 'skipped' };
  }
  return all;
}

/** {@link withoutIntent} for each of `intentIds` at `t` (ms). */
export function withoutIntents(all: Jobs, intentIds: readonly string[], t: number): Jobs {
  for (const id of intentIds) withoutIntent(all, id, t);
  return all;
}

/**
 * The intents that something in the outbox may still tell of: the one of a final, stuck or chain job not yet told
 * (`held`, `queued`, `clearing`, `showing`) or of a progress job not `done`, and every intent of an away summary not
 * yet tried. What the delivery asks the tracker about before a run.
 */
export function intentsAwaiting(all: Jobs): string[] {
  const ids = new Set<string>();
  for (const j of Object.values(all)) {
    if (j.kind === 'away') {
      if (j.state === 'queued') for (const id of j.intentIds) ids.add(id);
      continue;
    }
    const open = j.kind === 'progress' ? j.state !== 'done' : j.state !== 'shown' && j.state !== 'done';
    if (open && j.kind !== 'info' && j.intentIds[0]) ids.add(j.intentIds[0]);
  }
  return [...ids];
}
