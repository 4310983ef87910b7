/**
 * The stated windows of a worker's death for one intent's notification (docs/notifications.md, "What is guaranteed"):
 * Chrome may repeat, Firefox may lose, a final notification only for the intent whose job was `showing` in the outbox
 * as the worker died, or whose notification call the worker died in (Chrome: right after `create`/`update` took
 * effect; Firefox: before `create` ran). The oracle (test/world/oracle.ts) and the families' oracles read them here.
 */
import { intentIdsOfNotification } from '@/lib/notify/browser';
import type { Death, World } from './world';

/** Whether a death allows intent `id` a second telling (Chrome) or none (Firefox). */
export interface DeathExcuses {
  repeatAllowed(id: string): boolean;
  lossAllowed(id: string): boolean;
}

/** The death windows of a run: its world (the browser kind, the desktop's kills) and its deaths (with `showing`). */
export function deathExcuses(world: Pick<World, 'config' | 'profile'>, deaths: readonly Death[]): DeathExcuses {
  const kills = world.profile.desktop.kills;
  const dyingWhileShowing = (id: string) => deaths.some((d) => d.showing?.includes(id));
  const kind = world.config.kind;
  return {
    repeatAllowed: (id) =>
      kind === 'chrome' &&
      (dyingWhileShowing(id) ||
        kills.some((k) => k.after && (k.method === 'create' || k.method === 'update') && intentIdsOfNotification(k.detail).includes(id))),
    lossAllowed: (id) =>
      kind === 'firefox' &&
      (dyingWhileShowing(id) || kills.some((k) => !k.after && k.method === 'create' && intentIdsOfNotification(k.detail).includes(id))),
  };
}
