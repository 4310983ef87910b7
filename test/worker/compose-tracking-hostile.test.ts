/**
 * Hostile tests of the request budget's start gate (lib/worker/compose-tracking.ts): "nothing is sent, by any lane,
 * before a kept Retry-After hold is back in the budget, also when the tracker's load fails". Attacked with the
 * tracker state's read failing or hanging, the intents' load hanging, the settings read failing as the hold is
 * restored, and the user's own look-up asked at start. Either failure is as bad: a request inside the hold (I5), or
 * a worker that never sends again. A read that never answers counts as refused once the load's bound has passed
 * (lib/tracker/load-bound.ts, 2 s on the platform's clock): the same rule as a refused read then opens the gate.
 */
import { IDBFactory } from 'fake-indexeddb';
import type { UseStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { RequestBudget } from '@/lib/api/budget';
import { realPlatform } from '@/lib/platform';
import { createTrackerStateStore } from '@/lib/store';
import { createServiceAccess, openWorkerStores } from '@/lib/worker/compose';
import { createTrackingCore } from '@/lib/worker/compose-tracking';

/** How the tracker state store of the worker under test reads: as stored, refused, or never answering. */
const control = vi.hoisted(() => ({ state: 'ok' as 'ok' | 'reject' | 'hang' }));
vi.mock('@/lib/store', async (original) => {
  const real = await original<typeof import('@/lib/store')>();
  return {
    ...real,
    createTrackerStateStore: (db?: UseStore) => {
      const store = real.createTrackerStateStore(db);
      return {
        ...store,
        get: () =>
          control.state === 'reject'
            ? Promise.reject(new DOMException('refused', 'UnknownError'))
            : control.state === 'hang'
              ? new Promise(() => {})
              : store.get(),
      };
    },
  };
});

const BASE = 'https://svc.example';
const HISTORY = '{"intents":[],"page":{}}';
const RECEIPT_ID = `0x${'c'.repeat(64)}`;
const HOLD_MS = 600;
/** Longer than the hold and every start-up step: a request not sent by then is never sent. */
const PATIENCE_MS = 4_000;

type Setup = {
  intents?: 'ok' | 'reject' | 'hang';
  state?: 'ok' | 'reject' | 'hang';
  /** The settings read fails for this long (ms) after the worker's tracking group is built. */
  settingsDownMs?: number;
};

async function start(setup: Setup) {
  const sent: Array<{ at: number; url: string }> = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = String(input instanceof Request ? input.url : input);
    sent.push({ at: Date.now(), url });
    const body = url.includes('Receipt') ? JSON.stringify({ intentId: RECEIPT_ID, status: 'SUCCEEDED' }) : HISTORY;
    return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  const platform = realPlatform(fakeBrowser as never);
  const now = () => platform.clock.now();
  const stores = openWorkerStores(platform, now);
  await stores.settings.set({ baseUrl: BASE, accessKey: 'the-key' });
  const heldAt = Date.now();
  const pausedUntil = heldAt + HOLD_MS;
  await createTrackerStateStore(stores.settingsDb).set({ pausedAt: heldAt, pausedUntil, pauseServedMs: 0, pauseReason: 'RateLimited' });
  control.state = setup.state ?? 'ok';
  if (setup.intents === 'reject')
    Object.assign(stores.intents, { list: () => Promise.reject(new DOMException('refused', 'UnknownError')) });
  if (setup.intents === 'hang') Object.assign(stores.intents, { list: () => new Promise(() => {}) });
  const service = createServiceAccess(platform, stores, new RequestBudget({ clock: platform.clock }), now);
  const background = await service.clients.current('background');
  const user = await service.clients.current('user');
  if (setup.settingsDownMs) {
    const get = stores.settings.get.bind(stores.settings);
    const until = Date.now() + setup.settingsDownMs;
    Object.assign(stores.settings, {
      get: () => (Date.now() < until ? Promise.reject(new DOMException('refused', 'UnknownError')) : get()),
    });
  }
  const core = createTrackingCore(platform, stores, service, false);
  return { sent, pausedUntil, background: background!, user: user!, core };
}

/** `p`, or 'never' when it has not settled within {@link PATIENCE_MS}. */
function within<T>(p: Promise<T>): Promise<T | 'never'> {
  return Promise.race([p, new Promise<'never'>((r) => setTimeout(() => r('never'), PATIENCE_MS))]);
}

const answered = () => 'answered' as const;
const watched = { byOwnerAddress: '0x00000000000000000000000000000000000000a1' };

describe('the start gate under a kept hold, attacked', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    globalThis.indexedDB = new IDBFactory();
    control.state = 'ok';
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    control.state = 'ok';
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("the user's own look-up waits for the hold and is answered when it ends (intents refused)", async () => {
    const w = await start({ intents: 'reject' });
    try {
      const answer = await within(w.user.getIntentReceipt({ intentId: RECEIPT_ID }).then(answered, answered));
      expect(answer).toBe('answered');
      expect(w.sent).toHaveLength(1);
      expect(w.sent[0]!.at).toBeGreaterThanOrEqual(w.pausedUntil - 5);
      expect(w.sent[0]!.at).toBeLessThanOrEqual(w.pausedUntil + 2_000);
    } finally {
      w.core.tracker.stop();
    }
  });

  it('the tracker state cannot be read (the hold is unknown): the gate opens, a watched check goes out', async () => {
    const w = await start({ state: 'reject' });
    try {
      expect(await within(w.background.getIntentHistory(watched).then(answered, answered))).toBe('answered');
    } finally {
      w.core.tracker.stop();
    }
  });

  it('the tracker state cannot be read and the intents are refused: a watched check still goes out', async () => {
    const w = await start({ state: 'reject', intents: 'reject' });
    try {
      expect(await within(w.background.getIntentHistory(watched).then(answered, answered))).toBe('answered');
    } finally {
      w.core.tracker.stop();
    }
  });

  // The settings read refused once, as the kept hold is handed to the budget (`clients.scope()`), dropped the hold:
  // the gate opened and a watched check went out ~0.6 s inside the Retry-After. Now the gate stays shut for the hold.
  it('the settings read refused as the hold is restored: still nothing sent before the hold ends', async () => {
    const w = await start({ settingsDownMs: 100 });
    try {
      expect(await within(w.background.getIntentHistory(watched).then(answered, answered))).toBe('answered');
      expect(w.sent[0]!.at).toBeGreaterThanOrEqual(w.pausedUntil - 5);
    } finally {
      w.core.tracker.stop();
    }
  });

  // The intents' load never settling (an IndexedDB open blocked) kept the tracker's load — an allSettled over the
  // intents and the state — pending for ever, so the gate never opened: no lane sent again, the user's look-ups
  // included, though the kept hold ended long ago. Now the intents' read counts as refused at the load's bound: the
  // kept hold is restored alone and the gate waits for it, then opens.
  it('the intents never load: the user’s look-up is still answered once the hold ends', async () => {
    const w = await start({ intents: 'hang' });
    try {
      expect(await within(w.user.getIntentReceipt({ intentId: RECEIPT_ID }).then(answered, answered))).toBe('answered');
    } finally {
      w.core.tracker.stop();
    }
  });

  // The same when the tracker state's read never settles: at the bound the hold is unknown, the gate opens.
  it('the tracker state never loads: the user’s look-up is still answered', async () => {
    const w = await start({ state: 'hang' });
    try {
      expect(await within(w.user.getIntentReceipt({ intentId: RECEIPT_ID }).then(answered, answered))).toBe('answered');
    } finally {
      w.core.tracker.stop();
    }
  });
});
