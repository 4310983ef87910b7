/**
 * The delivery's re-checks before each run (`./delivery`) and each away summary (`./pipeline-calm` `release`): what
 * the tracker and the mutes say now, applied to the outbox's jobs (N2). A removal's or a mute's own outbox change can
 * be lost (its write refused, its worker dead between its two writes); these apply it again. The changes themselves
 * are pure, in `./outbox-removal`.
 */
import type { Outbox } from '../store/outbox';
import type { Jobs } from './outbox-changes';
import { intentsAwaiting, mutedAwaiting, muteMatters, withMuted, withoutIntents } from './outbox-removal';

/** What the re-checks use (part of `DeliveryDeps` in `./delivery`). */
export interface RecheckDeps {
  outbox: Outbox;
  /** Wall-clock time (ms). */
  now: () => number;
  /**
   * The tracked intent as the tracker holds it now (undefined: not tracked). Asked before each run for the intents
   * whose notification is still to come; none (tests of the delivery alone): every job is the tracker's.
   */
  intent?: ((intentId: string) => Promise<unknown>) | undefined;
  /** The intents muted now (the calm state's), read before each run; none: no job is held back for a mute. */
  muted?: (() => Promise<readonly string[]>) | undefined;
}

/**
 * `jobs` without those of the intents the tracker no longer holds (`withoutIntent`, N2): the user removed them, and
 * the notifier's own clean-up was refused or never ran (the worker died after the deletion). Written to the outbox;
 * a refused write leaves them out of the returned jobs all the same. A tracker that cannot answer (its load refused)
 * keeps the job: it is told as before.
 */
export async function dropUntracked({ intent, now, outbox }: RecheckDeps, jobs: Jobs): Promise<Jobs> {
  if (!intent) return jobs;
  const asked = intentsAwaiting(jobs);
  // Rejected: the tracker cannot say (its load refused); kept.
  const held = await Promise.all(asked.map((id) => intent(id).catch(() => true)));
  const gone = asked.filter((_, i) => !held[i]);
  if (gone.length === 0) return jobs;
  const t = now();
  return outbox.update((all) => withoutIntents(all, gone, t)).catch(() => withoutIntents({ ...jobs }, gone, t));
}

/**
 * `jobs` with what the mutes hold back taken out (`withMuted`, N2): queued jobs of muted intents skipped, their lines
 * out of an away summary still to come. The mute's own outbox change can be lost (refused, or its worker dead after
 * the mute was saved). Written; a refused write leaves them out all the same. Rejects when the mutes cannot be read
 * and a mute could matter: the run fails, nothing is shown that one may hold back (the next run tries again).
 */
export async function dropMuted({ muted, now, outbox }: RecheckDeps, jobs: Jobs): Promise<Jobs> {
  if (!muted || !muteMatters(jobs)) return jobs;
  const hit = mutedAwaiting(jobs, new Set(await muted()));
  if (hit.length === 0) return jobs;
  const t = now();
  const change = (all: Jobs) => hit.reduce((a, id) => withMuted(a, id, t), all);
  return outbox.update(change).catch(() => change({ ...jobs }));
}
