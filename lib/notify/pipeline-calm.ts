/**
 * The notification pipeline's calm requests (`./pipeline` documents each): forget an intent, mute one, snooze, end
 * the snooze, release what was held into the away summary, resume on a wake-up. Each writes the calm state and the
 * outbox changes that follow (`./outbox-changes`, pure) under the lock, then runs the delivery (`./delivery`).
 */
import type { CalmState } from '../store';
import type { NotificationJob } from '../store/outbox';
import { awayContent, isSnoozed, SNOOZE_MS } from './calm';
import { decide } from './decide';
import { awayKeyOf, heldForCalm, waitingFinal, withCalmOver, withLegacyHeld, withSnoozed, withSummary } from './outbox-changes';
import { withMuted, withoutIntents } from './outbox-removal';
import type { PipelineCore } from './pipeline-core';

/**
 * See `Notifier.forget` and `NotificationPipeline.forgetMany`: the intents are unmuted (but those of `keepMuted`),
 * their jobs go (a link stays); nothing is written for intents neither the mutes nor the outbox name.
 */
export async function forget(core: PipelineCore, intentIds: readonly string[], keepMuted?: ReadonlySet<string>): Promise<void> {
  if (intentIds.length === 0) return;
  const unmuted = new Set(intentIds.filter((id) => !keepMuted?.has(id)));
  const named = new Set(intentIds);
  await core.locked(async () => {
    const [state, jobs] = await Promise.all([core.deps.state.get(), core.deps.outbox.all()]);
    if (state.muted.some((id) => unmuted.has(id))) await core.saveCalm({ ...state, muted: state.muted.filter((id) => !unmuted.has(id)) });
    if (!Object.values(jobs).some((j) => j.intentIds.some((id) => named.has(id)))) return;
    const t = core.now();
    await core.deps.outbox.update((all) => withoutIntents(all, intentIds, t));
  });
  await core.delivery.pump();
}

/** See `NotificationPipeline.mute`. */
export async function mute(core: PipelineCore, intentId: string, muted: boolean): Promise<void> {
  await core.locked(async () => {
    const state = await core.deps.state.get();
    state.muted = state.muted.filter((id) => id !== intentId);
    if (muted) state.muted.push(intentId);
    await core.saveCalm(state);
    if (!muted) return;
    const t = core.now();
    await core.deps.outbox.update((all) => withMuted(all, intentId, t));
  });
  await core.delivery.pump();
}

/** See `NotificationPipeline.snooze`. */
export function snooze(core: PipelineCore, ms = SNOOZE_MS): Promise<void> {
  return core.locked(async () => {
    const [state, s, jobs] = await Promise.all([core.deps.state.get(), core.settings(), core.deps.outbox.all()]);
    const t = core.now();
    state.snoozeUntil = t + ms;
    // Finals still waiting (for their group's flush) are taken back first, as a mute takes back its intent's: a refused
    // write leaves no snooze saved, and a worker dying before the snooze's own write releases them at its next wake-up.
    const now = Object.values(jobs).some(waitingFinal) ? await core.deps.outbox.update((all) => withSnoozed(all, t)) : jobs;
    await core.saveCalm(state);
    await core.schedule(
      state,
      s,
      Object.values(now).some((j) => j.state === 'held'),
    );
  });
}

/** See `NotificationPipeline.endSnooze`. */
export async function endSnooze(core: PipelineCore): Promise<void> {
  await core.locked(async () => {
    const [state, s, jobs] = await Promise.all([core.deps.state.get(), core.settings(), core.deps.outbox.all()]);
    delete state.snoozeUntil;
    await core.saveCalm(state);
    await core.schedule(
      state,
      s,
      Object.values(jobs).some((j) => j.state === 'held'),
    );
  });
  await release(core);
}

/**
 * Held notifications kept by the version before the outbox (in the calm state) become held jobs, then leave the
 * calm state: written in that order, so a worker dying in between only repeats the first write (a job is added
 * only when the intent has none). Its progress marks are dropped: those notifications stay as they are on screen.
 */
async function adoptLegacyHeld(core: PipelineCore, state: CalmState, t: number): Promise<Record<string, NotificationJob>> {
  const legacy = state.held ?? [];
  if (legacy.length === 0 && Object.keys(state.progress ?? {}).length === 0) return core.deps.outbox.all();
  const jobs = await core.deps.outbox.update((all) => withLegacyHeld(all, legacy, t));
  state.held = [];
  state.progress = {};
  await core.saveCalm(state);
  return jobs;
}

/** See `NotificationPipeline.release`. */
export async function release(core: PipelineCore): Promise<void> {
  await core.locked(async () => {
    const [state, s] = await Promise.all([core.deps.state.get(), core.settings()]);
    const t = core.now();
    // Held jobs of intents removed since (their forget lost) go before the summary is made of them (N2).
    let jobs = await core.delivery.dropUntracked(await adoptLegacyHeld(core, state, t));
    let changed = false;
    if (state.snoozeUntil !== undefined && state.snoozeUntil <= t) {
      delete state.snoozeUntil;
      changed = true;
    }
    const calm = decide({ kind: 'away' }, s, state, t) === 'hold';
    // A final decided before the calm began and never tried (its group's flush not reached when a worker died, or the
    // snooze's own write of it lost) is held now, before any run of this wake-up could show it.
    if (calm && Object.values(jobs).some(waitingFinal)) jobs = await core.deps.outbox.update((all) => withSnoozed(all, t));
    const held = Object.values(jobs).filter((j) => j.kind === 'final' && j.state === 'held');
    if (changed) await core.saveCalm(state);
    if (calm) {
      // Called on every wake-up: the alarm is only touched when there is something to end.
      if (changed || held.length > 0 || isSnoozed(state, t)) await core.schedule(state, s, held.length > 0);
      return;
    }
    if (held.length > 0) {
      // One write: each held intent becomes a line of the away summary (or is skipped, muted meanwhile).
      const due = held.filter((h) => !state.muted.includes(h.intentIds[0]!));
      const away = awayContent(due.map((h) => ({ intentId: h.intentIds[0]!, status: h.status ?? 'UNKNOWN', heldAt: h.at })));
      const awayKey = awayKeyOf(due, t);
      await core.deps.outbox.update((all) => withSummary(all, held, due, awayKey, away, t));
    }
    // Chain warnings held for a snooze or quiet hours that ended early go now too (a refused write: at their time).
    if (Object.values(jobs).some((j) => heldForCalm(j, t))) await core.deps.outbox.update((all) => withCalmOver(all, t)).catch(() => {});
    if (changed || held.length > 0) await core.deps.scheduleRelease(undefined).catch(() => {});
  });
  await core.delivery.pump();
}

/** See `NotificationPipeline.resume`. */
export async function resume(core: PipelineCore): Promise<void> {
  await release(core).catch(() => {});
  await core.delivery.pump();
}
