/**
 * The `clickRemoved` family of the world campaign (symptom 20 of issue 27): the user clicks a notification that
 * appeared — its body, "View receipt" or "Open in explorer" (Chrome's buttons; Firefox has none: the body) — often
 * after removing its intent from the tracked list. The click wakes the worker like any event, and the worker may die
 * in its awaits like anywhere else.
 *
 * The oracle (C1, per click): what docs/notifications.md says a click does — one tab opens: the receipt page of its
 * intent (`popup.html#intent=<id>`; a summary of several: the tracked list) for the body and "View receipt", a known
 * explorer's page or, nothing known any more, the receipt page for "Open in explorer"; the notification is cleared
 * once something opened. A worker that died within the click's 10 s excuses it (the click is lost with the worker).
 */
import fc from 'fast-check';
import { isKnownExplorerTxUrl } from '@/lib/format/chains';
import { AWAY, GROUP, intentIdsOfNotification, SINGLE } from '@/lib/notify/browser';
import type { FamilyContext, FamilyCount } from './family-types';

const MIN = 60_000;

/** The arbitrary of the family's part of a schedule. */
export const clicksArb = fc.array(
  fc.record({
    at: fc.integer({ min: MIN, max: 14 * MIN }),
    target: fc.nat(),
    /** -1: the body; 0: "View receipt"; 1: "Open in explorer" (Chrome). */
    button: fc.constantFrom(-1, 0, 1, 1),
    /** The user removes its intent first (and clicks once the removal answered). */
    removeFirst: fc.boolean(),
  }),
  { maxLength: 3 },
);

/** The family's part of a schedule. */
export type ClicksSpec = typeof clicksArb extends fc.Arbitrary<infer T> ? T : never;

/** One click as it happened. */
export interface ClickObs {
  at: number;
  notificationId: string;
  button: number;
  removed: boolean;
  /** Tabs opened from the click until 10 s after it (until `seenAt`). */
  opened: string[];
  /**
   * When the tabs were counted: 10 s after the click, or later when that timer fired late (time passed while the
   * worker worked: the slowDisk family).
   */
  seenAt?: number;
  /** Still on screen 10 s after the click. */
  onScreen: boolean;
  /** The worker died within those 10 s. */
  died: boolean;
}

/** Plays the family: at each time, picks a notification that appeared and clicks it (removing its intent first). */
export function playClicks(ctx: FamilyContext, spec: ClicksSpec): ClickObs[] {
  const obs: ClickObs[] = [];
  const { world } = ctx;
  const desktop = world.profile.desktop;
  const click = (notificationId: string, button: number, removed: boolean) => {
    if (world.closed) return;
    world.start('wake');
    const current = world.current;
    if (!current) return;
    const before = desktop.tabs.length;
    const deathsBefore = world.deaths.length;
    const b = world.config.kind === 'chrome' ? button : -1;
    const o: ClickObs = { at: ctx.now(), notificationId, button: b, removed, opened: [], onScreen: true, died: false };
    obs.push(o);
    if (b < 0) current.lb.events.onClicked.fire(notificationId);
    else current.lb.events.onButtonClicked.fire(notificationId, b);
    ctx.at(ctx.time.t + 10_000, () => {
      o.seenAt = ctx.now();
      o.opened = desktop.tabs.slice(before);
      o.onScreen = desktop.screen.has(notificationId);
      o.died = world.deaths.length > deathsBefore;
    });
  };
  for (const c of spec) {
    ctx.at(c.at, () => {
      const shown = [...new Set(desktop.log.map((a) => a.id))].filter((id) => id.startsWith(SINGLE) || id.startsWith(GROUP));
      if (shown.length === 0) return;
      const notificationId = shown[c.target % shown.length]!;
      const ids = intentIdsOfNotification(notificationId);
      const id = ids[0];
      if (!c.removeFirst || ids.length !== 1 || !id || !ctx.tracked.has(id) || ctx.removeAsked.has(id)) {
        click(notificationId, ids.length === 1 ? c.button : -1, id !== undefined && ctx.removeAsked.has(id));
        return;
      }
      ctx.removeAsked.add(id);
      void world.send({ type: 'remove', intentId: id }).then((reply) => {
        if (!(reply as { ok?: boolean } | undefined)?.ok) return;
        ctx.tracked.get(id)!.removedAt = ctx.now();
        click(notificationId, c.button, true);
      });
    });
  }
  return obs;
}

/** C1: each click did what docs/notifications.md says (see the module's docstring). */
export function checkClicksAfterRemoval(obs: ClickObs[], count: FamilyCount, rejections: boolean): string[] {
  const v: string[] = [];
  for (const c of obs) {
    // Another click within 10 s before this one, or before its tabs were counted (its tabs mixed).
    const seenAt = Math.max(c.at + 10_000, c.seenAt ?? 0);
    if (obs.some((x) => x !== c && x.at > c.at - 10_000 && x.at <= seenAt)) {
      count.excused('C1', 'another click within 10 s (its tabs mixed)');
      continue;
    }
    const what = `${c.button < 0 ? 'a click on' : `button ${c.button} of`} ${c.notificationId}${c.removed ? ' (its intent removed)' : ''}`;
    if (c.died) {
      count.excused('C1', 'death within the click');
      continue;
    }
    const ids = intentIdsOfNotification(c.notificationId);
    const receiptPage = (u: string) => ids.length === 1 && u.endsWith(`/popup.html#intent=${encodeURIComponent(ids[0]!)}`);
    const listPage = (u: string) => u.endsWith('/popup.html');
    const fits = (u: string) =>
      c.button === 1
        ? isKnownExplorerTxUrl(u) || receiptPage(u)
        : c.notificationId.startsWith(AWAY) || ids.length > 1
          ? listPage(u)
          : receiptPage(u);
    if (c.opened.length !== 1) v.push(`C1 ${what} opened ${c.opened.length} tabs (${c.opened.join(', ')})`);
    else if (!fits(c.opened[0]!)) v.push(`C1 ${what} opened ${c.opened[0]}`);
    else if (c.onScreen && rejections) count.excused('C1', 'left on screen: the notifications API refused a call');
    else if (c.onScreen) v.push(`C1 ${what} opened ${c.opened[0]} but left the notification on screen`);
    else count.ok('C1');
  }
  return v;
}
