/**
 * The notification pipeline's events (`./pipeline` documents each): a final outcome, a stuck intent, a disagreement
 * with the chain, an information, a progress change; and what the outbox says of a notification. Each decides
 * (`./decide`, pure), writes the outbox changes that follow (`./outbox-changes`, pure) in one update under the lock,
 * then leaves the calls to the delivery (`./delivery`).
 */
import { t as words } from '../i18n';
import type { TrackedIntent } from '../store';
import { INFO, PROGRESS } from './browser';
import { progressContent, releaseAt } from './calm';
import type { ChainNotice } from './chain';
import { stuckContent } from './content';
import { decide } from './decide';
import {
  active,
  addInfo,
  chainJob,
  contentOf,
  finalJob,
  finalKey,
  progressJob,
  progressKey,
  stuckJob,
  stuckKey,
  withFinal,
} from './outbox-changes';
import type { PipelineCore } from './pipeline-core';

/** The final notification of `intent` (see `Notifier.show`). */
export async function showFinal(core: PipelineCore, intent: TrackedIntent): Promise<{ title: string; message: string } | undefined> {
  const key = finalKey(intent.intentId);
  const decided = await core.locked(async () => {
    const [state, s, jobs] = await Promise.all([core.deps.state.get(), core.settings(), core.deps.outbox.all()]);
    if (jobs[key]) return { action: 'again' as const, job: jobs[key]! };
    const t = core.now();
    const progress = jobs[progressKey(intent.intentId)];
    // Firefox cannot turn a notification into another (no `update`): its progress notification is cleared and the
    // final shown as any other, grouped with the finals around it, rather than cleared and created alone.
    const inPlace = active(progress) && !core.deps.adapter.firefox;
    const action = decide({ kind: 'final', intentId: intent.intentId, status: intent.status, progressOnScreen: inPlace }, s, state, t);
    const job = finalJob(intent, action, progress, t);
    // Grouping is decided before the job is visible to a run of the outbox, and undone when the job could not be
    // written: nothing was shown, and a key left held for the grouping would keep the job written by a later try
    // out of every run of this life.
    const windowBefore = core.delivery.group.window;
    const flush = action === 'show' ? core.delivery.group.hold(key) : undefined;
    const windowHeld = core.delivery.group.window;
    // Its progress notification (Firefox, or progress switched off meanwhile) is cleared when the final shows, not
    // while the final waits for its group.
    const along = flush && progress && active(progress) ? progress.key : undefined;
    if (along) core.delivery.group.holdAlong(along);
    await core.deps.outbox
      .update((all) => withFinal(all, job, action, t))
      .catch((err: unknown) => {
        core.delivery.group.unhold(key, windowBefore, windowHeld);
        if (along) core.delivery.group.drop(along);
        throw err;
      });
    if (action === 'hold') await core.schedule(state, s, true).catch(() => {});
    return { action, job, content: contentOf(job), flush };
  });
  if (decided.action === 'again') {
    await core.delivery.pump();
    return undefined;
  }
  if (decided.action === 'hold' || decided.action === 'skip') {
    void core.delivery.pump();
    return undefined;
  }
  const done = core.delivery.waitFor(key);
  if (decided.flush !== undefined) core.delivery.group.arm(decided.flush);
  else void core.delivery.pump();
  await done;
  return decided.content;
}

/** See `NotificationPipeline.explorerLinkOf`. */
export async function explorerLinkOf(core: PipelineCore, notificationId: string): Promise<string | undefined> {
  const jobs = Object.values(await core.deps.outbox.all());
  return jobs.find((j) => j.notificationId === notificationId && j.explorerUrl !== undefined)?.explorerUrl;
}

/** See `Notifier.exists`. */
export async function exists(core: PipelineCore, intentId: string): Promise<boolean> {
  return (await core.deps.outbox.all())[finalKey(intentId)] !== undefined;
}

/** See `NotificationPipeline.showStuck`. */
export async function showStuck(core: PipelineCore, intent: TrackedIntent, minutes: number, stillDue?: () => boolean): Promise<unknown> {
  const key = stuckKey(intent.intentId);
  let due = true;
  const go = await core.locked(async () => {
    const [state, s, jobs] = await Promise.all([core.deps.state.get(), core.settings(), core.deps.outbox.all()]);
    const t = core.now();
    due = stillDue?.() ?? true;
    if (!due) return false;
    if (jobs[key] || decide({ kind: 'stuck', intentId: intent.intentId }, s, state, t) !== 'show') return false;
    const job = stuckJob(intent.intentId, stuckContent(intent, minutes), t);
    await core.deps.outbox.update((all) => {
      all[key] = job;
      return all;
    });
    return true;
  });
  if (go) void core.delivery.pump();
  if (!due) return false;
}

/** See `NotificationPipeline.showChain`. */
export async function showChain(core: PipelineCore, notice: ChainNotice): Promise<void> {
  const go = await core.locked(async () => {
    const [state, s, jobs] = await Promise.all([core.deps.state.get(), core.settings(), core.deps.outbox.all()]);
    const t = core.now();
    const action = decide({ kind: 'chain', intentId: notice.intentId, urgent: notice.urgent }, s, state, t);
    if (jobs[notice.key] || action === 'skip') return false;
    // Held: queued for when the snooze or quiet hours end (the retry timer and every wake-up deliver what is due).
    const job = chainJob(notice, action === 'hold' ? releaseAt(state, s, t) : t, t);
    await core.deps.outbox.update((all) => {
      all[notice.key] = job;
      return all;
    });
    return true;
  });
  if (go) void core.delivery.pump();
}

/** See `NotificationPipeline.inform`. */
export async function inform(core: PipelineCore, message: string): Promise<string> {
  const key = await core.locked(async () => {
    const t = core.now();
    let key = '';
    await core.deps.outbox.update((all) => {
      key = addInfo(all, words('extName'), message, t, core.nextInfoSeq);
      return all;
    });
    return key;
  });
  // Waits for the first attempt (shown, or rejected and left to the retries), so that the user's action ends
  // with its answer on screen.
  const tried = core.delivery.waitFor(key);
  void core.delivery.pump();
  await tried;
  return `${INFO}${key.slice('info:'.length)}`;
}

/** See `NotificationPipeline.progress`. */
export async function progress(core: PipelineCore, intentId: string): Promise<void> {
  // Called after every change of every record: off (the default) costs one settings read, and no turn in the lock.
  if (!(await core.settings()).progress) return;
  await core.locked(async () => {
    const [s, state, intent, jobs] = await Promise.all([
      core.settings(),
      core.deps.state.get(),
      core.deps.intent(intentId),
      core.deps.outbox.all(),
    ]);
    // Only intents in flight; a final one is the final job's business.
    if (intent?.phase !== 'tracking' || intent.notification !== 'none' || !intent.receipt || jobs[finalKey(intentId)]) return;
    const key = progressKey(intentId);
    const current = jobs[key];
    const on = active(current) && current!.state !== 'clearing';
    const t = core.now();
    const action = decide({ kind: 'progress', intentId, progressOnScreen: on }, s, state, t);
    if (action === 'skip') return;
    const content = progressContent(intent);
    if (on && current!.title === content.title && current!.message === content.message) return;
    const id = on ? current!.notificationId! : `${PROGRESS}${intentId}:${t}`;
    // Written first, with its id: a create replayed under the same id replaces, never adds.
    await core.deps.outbox.update((all) => {
      all[key] = progressJob(intentId, id, content, t);
      return all;
    });
    await showProgress(core, id, content, action === 'update');
    await core.delivery.patch([key], { state: 'shown' });
  });
}

/** Creates the progress notification `id`, or (`update`) brings it up to date: in place on Chrome, anew on Firefox. */
async function showProgress(core: PipelineCore, id: string, content: { title: string; message: string }, update: boolean): Promise<void> {
  const { adapter } = core.deps;
  const o = { sound: false, explorer: false };
  if (update) {
    if (adapter.firefox) {
      await adapter.clear(id);
      await adapter.create(id, content, o);
    } else if (!(await adapter.update(id, content, o))) await adapter.create(id, content, o);
  } else await adapter.create(id, content, o);
}
