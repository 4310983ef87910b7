/**
 * The watchdogs act only on an answer this worker received that showed the status believed (I2): never on a stale
 * answer (a status behind, counted as a check all the same), never on a previous worker's `lastCheckedAt`, whose
 * wall time a jump of the user's clock between the two lives makes look recent. Both failed on the engine that read
 * freshness from `lastCheckedAt` (world campaign: seed 20261126, run 5 of `backwards`; run 18 with `jump`).
 */
import { describe, expect, it } from 'vitest';
import { Tracker } from '@/lib/tracker/engine';
import { ServiceClock } from '@/lib/tracker/service-clock';
import type { ReceiptTransport } from '@/lib/tracker/types';
import { engineHarness, PENDING, sid } from './engine-harness';
import { RecordingNotifier } from './fakes';

const MIN = 60_000;

/** The fake service's transport; `rewrite` may replace an answer's status; every answer is logged with its time. */
function logging(inner: ReceiptTransport, now: () => number, rewrite: () => string | undefined) {
  const answers: Array<{ at: number; status: string }> = [];
  const wrap =
    <A extends unknown[], R extends { intentReceipt: { status: string } }>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const res = await call(...args);
      const status = rewrite() ?? res.intentReceipt.status;
      answers.push({ at: now(), status });
      return { ...res, intentReceipt: { ...res.intentReceipt, status } };
    };
  const transport: ReceiptTransport = {
    waitIntentReceipt: wrap(inner.waitIntentReceipt.bind(inner)),
    getIntentReceipt: wrap(inner.getIntentReceipt.bind(inner)),
  };
  return { transport, answers };
}

/** The engine harness on the logging transport (`rewrite` as in `logging`); `answers()` reads what was answered. */
function harnessWithReplica(rewrite: (h: ReturnType<typeof engineHarness>) => string | undefined) {
  let logged: ReturnType<typeof logging> | undefined;
  const h = engineHarness(20_000, null, {
    transport: async () => {
      logged ??= logging(
        h.service.transport(),
        () => h.clock.now(),
        () => rewrite(h),
      );
      return logged.transport;
    },
  });
  return { h, answers: () => logged?.answers ?? [] };
}

describe('the watchdogs act on a fresh answer that showed the believed status (I2)', () => {
  it('a stale replica answering COMMITTED for an EXECUTING intent past its stuck limit raises no warning until an EXECUTING answer', async () => {
    let staleReplica = false;
    const { h, answers } = harnessWithReplica(() => (staleReplica ? 'COMMITTED' : undefined));
    const warned: number[] = [];
    (h.notifier as unknown as { showStuck: () => Promise<void> }).showStuck = async () => {
      warned.push(h.clock.now());
    };
    h.add(1, [[1_000, 'EXECUTING', PENDING]]);
    await h.tracker.track(sid(1));
    await h.clock.advance(14 * MIN);
    expect((await h.store.get(sid(1)))?.status).toBe('EXECUTING');
    // From now on every answer is stale: the intent passes its 15-minute stuck limit with no EXECUTING answer.
    staleReplica = true;
    await h.clock.advance(6 * MIN);
    expect(answers().filter((a) => a.status === 'COMMITTED').length).toBeGreaterThan(5);
    expect(warned).toEqual([]);
    staleReplica = false;
    await h.clock.advance(2 * MIN);
    expect(warned).toHaveLength(1);
    const before = answers()
      .filter((a) => a.at <= warned[0]!)
      .at(-1)!;
    expect(before.status).toBe('EXECUTING');
    expect(warned[0]! - before.at).toBeLessThan(30_000);
    h.tracker.stop();
  });

  it('an intent that executes while a stale replica still answers COMMITTED past its window is not expired on that answer (world campaign seed 20261126, run 291)', async () => {
    // It executes at 10.5 min; from then on two of every three answers are stale (COMMITTED). The tracker has not seen
    // it EXECUTING, so they are not "behind"; expiry waits for EXPIRY_ANSWERS fresh answers in a row past the 11-min
    // window, and an EXECUTING one comes first.
    let n = 0;
    let start = Number.POSITIVE_INFINITY;
    const { h, answers } = harnessWithReplica((h) =>
      h.clock.now() - start >= 10 * MIN + 30_000 && n++ % 3 !== 2 ? 'COMMITTED' : undefined,
    );
    start = h.clock.now();
    h.add(1, [[10 * MIN + 30_000, 'EXECUTING', PENDING]]);
    await h.tracker.track(sid(1));
    await h.clock.advance(13 * MIN);
    expect(answers().filter((a) => a.at - start >= 11 * MIN && a.status === 'COMMITTED').length).toBeGreaterThan(1);
    const record = await h.store.get(sid(1));
    expect(record?.phase).toBe('tracking');
    expect(record?.status).toBe('EXECUTING');
    h.tracker.stop();
  });

  it('an intent answered COMMITTED by a stale replica 9 times in a row past its window, never seen EXECUTING, is not expired (world campaign seed 20261130, run 787)', async () => {
    // It executes 10 s after its commit, but every answer is stale until 9 have come that could count past the 11-min
    // window (from 30 s before it: an answer stays fresh 29 s): the tracker cannot tell them from true ones. With one answer in three stale, 5 in a row expired an executing intent
    // once in about 400 such waits; 10 in a row, once in about 170,000.
    let start = Number.POSITIVE_INFINITY;
    let pastWindow = 0;
    const { h, answers } = harnessWithReplica((h) => {
      if (h.clock.now() - start < 11 * MIN - 30_000) return 'COMMITTED';
      return pastWindow++ < 9 ? 'COMMITTED' : undefined;
    });
    start = h.clock.now();
    h.add(1, [[10_000, 'EXECUTING', PENDING]]);
    await h.tracker.track(sid(1));
    await h.clock.advance(20 * MIN);
    const record = await h.store.get(sid(1));
    expect(record?.phase).toBe('tracking');
    expect(record?.status).toBe('EXECUTING');
    expect(answers().filter((a) => a.at - start >= 11 * MIN - 30_000 && a.status === 'COMMITTED')).toHaveLength(9);
    h.tracker.stop();
  });

  it('a restarted worker whose wall clock went back does not expire an intent on the previous worker’s answer: it asks first', async () => {
    const h = engineHarness(20_000, null);
    // COMMITTED for 12 min (past the 11-minute window), then it executes.
    h.add(1, [[12 * MIN, 'EXECUTING', PENDING]]);
    await h.tracker.track(sid(1));
    await h.clock.advance(10 * MIN + 30_000);
    expect((await h.store.get(sid(1)))?.status).toBe('COMMITTED');
    const lastChecked = (await h.store.get(sid(1)))!.lastCheckedAt!;
    // The worker dies; five minutes later the next one starts with the user's clock set back 5 min: the last answer
    // (now over 5 min old, past the commit window, and the intent EXECUTING since) looks seconds old on the wall clock.
    // (The service keeps the true time: only the next worker's wall clock is set back.)
    h.tracker.stop();
    await h.clock.advance(5 * MIN);
    const c = h.clock;
    const wallBack = { now: () => c.now() - 5 * MIN, monotonic: () => c.monotonic(), sleep: c.sleep.bind(c) };
    expect(wallBack.now() - lastChecked).toBeLessThan(29_000);
    const before = h.service.log.length;
    const transport = async () => h.service.transport();
    // Another request of the new worker already told the service's time (its Date header).
    const serviceClock = new ServiceClock(wallBack);
    serviceClock.observeDate(c.now());
    const notifier = new RecordingNotifier();
    const next = new Tracker({ store: h.store, clock: wallBack, notifier, transport, serviceClock, random: () => 1 });
    await next.resume();
    await h.clock.advance(30_000);
    expect(h.service.log.length).toBeGreaterThan(before);
    const record = await h.store.get(sid(1));
    expect(record?.phase).toBe('tracking');
    expect(record?.status).toBe('EXECUTING');
    next.stop();
  });
});
