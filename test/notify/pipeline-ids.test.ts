/**
 * Notification ids of the pipeline's summaries: two "while you were away" summaries handled in the same millisecond
 * are two notifications, each with its own id and its own outbox job (a shared id would let Chrome replace the first
 * with the second, and a shared job key would overwrite the first summary's lines).
 */

import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { AWAY } from '@/lib/notify/browser';
import type { NotifySettings } from '@/lib/store';
import { createOutbox } from '@/lib/store/outbox';
import type { VirtualClock } from '../tracker/fakes';
import { worker as desktopWorker, freshStart, id, type Shared } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

describe('away summaries in the same millisecond', () => {
  let clock: VirtualClock;
  let settings: NotifySettings;
  let shared: Shared;
  beforeEach(() => {
    ({ clock, settings, shared } = freshStart());
  });
  /** The summaries (by key, without `away:`) the final jobs of intents 1 and 2 were made lines of. */
  const summarisedInto = async () => {
    const jobs = await createOutbox(createStore(shared.outboxDb, 'jobs')).all();
    return [1, 2].map((n) => jobs[`final:${id(n)}`]?.reason?.replace('summarised:away:', '')).sort();
  };

  it('are two notifications with two ids, each summarising its own intents', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = desktopWorker(shared, desktop, clock, () => settings);
    // The clock does not move between the two summaries.
    await w.calm.snooze();
    await w.finish(1, 'SUCCEEDED');
    await w.calm.endSnooze();
    await w.calm.snooze();
    await w.finish(2, 'FAILED');
    await w.calm.endSnooze();
    const away = desktop.log.filter((a) => a.id.startsWith(AWAY));
    expect(away).toHaveLength(2);
    expect(new Set(away.map((a) => a.id)).size).toBe(2);
    // Both are on screen: the second did not replace the first.
    expect([...desktop.screen.keys()].filter((k) => k.startsWith(AWAY))).toHaveLength(2);
    // Each intent's line went into its own summary.
    expect(await summarisedInto()).toEqual([away[0]!.id.slice(AWAY.length), away[1]!.id.slice(AWAY.length)].sort());
  });

  it('the first, whose create was rejected, is not overwritten by the second: both intents are told', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = desktopWorker(shared, desktop, clock, () => settings);
    await w.calm.snooze();
    await w.finish(1, 'SUCCEEDED');
    w.browser.fail('create');
    await w.calm.endSnooze();
    await w.calm.snooze();
    await w.finish(2, 'FAILED');
    await w.calm.endSnooze();
    await clock.advance(60_000);
    await w.calm.resume();
    const away = [...desktop.screen.keys()].filter((k) => k.startsWith(AWAY));
    expect(away).toHaveLength(2);
    expect(await summarisedInto()).toEqual(away.map((k) => k.slice(AWAY.length)).sort());
  });
});
