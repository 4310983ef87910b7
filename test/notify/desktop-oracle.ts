/**
 * What the user saw on a {@link FakeDesktop}, read the way a person reads it, for the campaigns' oracles (N1, N2, N5
 * of the README): which intents were told by a notification of their own, how many lines the away summaries had,
 * where each browser's stated window allows a loss or a repeat, and whether every click and button of every
 * notification that appeared does what it says. Nothing here reads the outbox or a record: only the desktop.
 */
import { AWAY, GROUP, intentIdsOfNotification, PROGRESS, SINGLE } from '@/lib/notify/browser';
import { createNotificationRouting } from '@/lib/worker/notification-routing';
import { receiptOf } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

/** The words of a final outcome's title, as the user reads them. */
const FINAL_WORDS = /^Intent (succeeded|failed|refunded|aborted) · /;

/** What told the user an intent's outcome. */
export interface Tellings {
  /** Per intentId: final notifications created for it (alone or grouped) and progress notifications turned final. */
  own: Map<string, number>;
  /** Per intentId: when it was told on its own (the desktop's time), in order. */
  at: Map<string, number[]>;
  /** Lines of every away summary that appeared ("While you were away: N intents finished"). */
  awayLines: number;
}

/** Reads the desktop's log: who was told, and how often. */
export function tellings(desktop: FakeDesktop): Tellings {
  const own = new Map<string, number>();
  const at = new Map<string, number[]>();
  const progressTitle = new Map<string, string>();
  let awayLines = 0;
  for (const a of desktop.log) {
    if (a.id.startsWith(AWAY)) {
      if (a.how === 'create') {
        const m = /While you were away: (\d+) intents? finished/.exec(a.title);
        awayLines += m ? Number(m[1]) : 0;
      }
      continue;
    }
    const told = a.id.startsWith(PROGRESS)
      ? FINAL_WORDS.test(a.title) && !FINAL_WORDS.test(progressTitle.get(a.id) ?? '')
      : (a.id.startsWith(SINGLE) || a.id.startsWith(GROUP)) && a.how === 'create';
    if (a.id.startsWith(PROGRESS)) progressTitle.set(a.id, a.title);
    if (!told) continue;
    for (const i of intentIdsOfNotification(a.id)) {
      own.set(i, (own.get(i) ?? 0) + 1);
      at.set(i, [...(at.get(i) ?? []), a.at]);
    }
  }
  return { own, at, awayLines };
}

/**
 * Chrome's stated window (README): the worker died just after a `create` or `update` about `intentId` (or an away
 * summary) took effect, or in an outbox write, before the outbox recorded it — then a second telling is allowed.
 */
export function chromeRepeatAllowed(desktop: FakeDesktop, intentId: string): boolean {
  if (desktop.kind !== 'chrome') return false;
  return desktop.kills.some(
    (k) =>
      k.method === 'outbox.update' ||
      (k.after &&
        (k.method === 'create' || k.method === 'update') &&
        (intentIdsOfNotification(k.detail).includes(intentId) || k.detail.startsWith(AWAY))),
  );
}

/** How many tellings beyond one each Chrome window can add in all (deaths after a call took effect, or in an outbox write). */
export function chromeRepeats(desktop: FakeDesktop): number {
  return desktop.kind === 'chrome' ? desktop.kills.filter((k) => k.after || k.method === 'outbox.update').length : 0;
}

/**
 * Firefox's stated window: a job is written `showing` before its `create`, and a death between that write and the
 * write that records the create's outcome loses the notification (at most once).
 */
export function firefoxLossPossible(desktop: FakeDesktop): boolean {
  return desktop.kind === 'firefox' && desktop.kills.some((k) => k.method === 'create' || k.method === 'outbox.update');
}

/**
 * N5: clicks the body and every button of every notification that appeared, on a fresh browser of the same kind with
 * the click routing of `lib/worker/notification-routing.ts`; returns what did not do what it says (a click on one
 * intent's notification opens its receipt, "Open in explorer" an https explorer page, a summary the tracked list).
 */
export async function checkClicks(desktop: FakeDesktop): Promise<string[]> {
  const v: string[] = [];
  const clicker = new FakeDesktop(desktop.kind, desktop.now);
  const routing = createNotificationRouting(clicker.worker() as never, {
    get: async (intentId: string) => ({
      intentId,
      addedAt: 0,
      lastStates: [],
      phase: 'final',
      notification: 'shown',
      status: 'SUCCEEDED',
      receipt: receiptOf(Number.parseInt(intentId, 16), 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']),
    }),
  });
  for (const a of desktop.log) {
    for (let b = -1; b < a.buttons.length; b++) {
      const before = clicker.tabs.length;
      if (b < 0) await routing.openNotification(a.id);
      else await routing.notificationButton(a.id, b);
      const url = clicker.tabs[before];
      if (clicker.tabs.length !== before + 1 || url === undefined) {
        v.push(`N5 ${b < 0 ? 'a click on' : `button ${b} of`} ${a.id} opened nothing`);
        continue;
      }
      const ids = intentIdsOfNotification(a.id);
      const ok =
        b === 1
          ? url.startsWith('https://')
          : ids.length === 1
            ? url.endsWith(`#intent=${encodeURIComponent(ids[0]!)}`)
            : url.endsWith('/popup.html');
      if (!ok) v.push(`N5 ${b < 0 ? 'a click on' : `button ${b} (${a.buttons[b]}) of`} ${a.id} opened ${url}`);
    }
  }
  return v;
}
