/**
 * Hostile tests of the stuck warning (lib/tracker/watchdog-actions.ts) when IndexedDB refuses a write: the mark of a
 * warning already queued, refused, must not end the pump's pass (and with it every other intent's checks).
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { MemoryStore } from '@/lib/store/memory';
import { engineHarness, sid } from './engine-harness';

const MIN = 60_000;

/** An intent store that refuses (quota) every write that marks a stuck warning given, while `refuse` is set. */
class RefusingMarks extends MemoryStore {
  refuse = true;
  refused = 0;
  override async update(intentId: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) {
    const current = this.map.get(intentId);
    const next = fn(current);
    if (this.refuse && next?.stuckNotifiedAt !== undefined && current?.stuckNotifiedAt === undefined) {
      this.refused++;
      throw new DOMException('write refused', 'QuotaExceededError');
    }
    return super.update(intentId, () => next);
  }
}

/** An intent store that refuses (quota) every write while `full` is set: a disk that stays full. */
class FullDisk extends MemoryStore {
  full = false;
  override async update(intentId: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) {
    if (this.full) throw new DOMException('write refused', 'QuotaExceededError');
    return super.update(intentId, fn);
  }
}

describe('the stuck warning on a disk that stays full (hostile)', () => {
  it('an intent seen EXECUTING before the disk filled, and answered EXECUTING since, is warned stuck all the same', async () => {
    const store = new FullDisk();
    const warned: Array<[string, number]> = [];
    const { clock, tracker, add, notifier } = engineHarness(20_000, null, { store });
    (notifier as unknown as { showStuck: (i: TrackedIntent, m: number) => Promise<void> }).showStuck = async (i, m) => {
      warned.push([i.intentId, m]);
    };
    add(1, [[1_000, 'EXECUTING', ['PENDING', 'UNKNOWN', 'UNKNOWN']]]);
    await tracker.track(sid(1));
    await clock.advance(5 * MIN);
    expect((await store.get(sid(1)))?.status).toBe('EXECUTING');
    // The disk fills at 5 min and stays full: every answer since (EXECUTING, as believed) is refused its write.
    store.full = true;
    await clock.advance(15 * MIN);
    // Asked on each pass (its mark is refused too): the real notifier keeps one warning per intent.
    expect([...new Set(warned.map(([id]) => id))]).toEqual([sid(1)]);
    expect(warned[0]?.[1]).toBeGreaterThanOrEqual(15);
    tracker.stop();
  });
});

describe('the pace of checks on a disk that stays full (hostile)', () => {
  // With every write refused, neither an answer's pause before the next long-poll nor an error's back-off could be
  // written, and the intent was asked again at once: one EXECUTING intent about 30 times a minute (452 requests in 15
  // min, against 17 in the 5 min before the disk filled). The pace is now held in memory (EngineCore.heldPace).
  it('an intent answered unchanged is asked no more often than before the disk filled', async () => {
    const store = new FullDisk();
    const { clock, tracker, add, service } = engineHarness(20_000, null, { store });
    add(1, [[1_000, 'EXECUTING', ['PENDING', 'UNKNOWN', 'UNKNOWN']]]);
    await tracker.track(sid(1));
    await clock.advance(5 * MIN);
    const healthy = service.log.length;
    store.full = true;
    const fullAt = clock.now();
    await clock.advance(5 * MIN);
    expect(service.log.length - healthy).toBeLessThanOrEqual(2 * healthy);
    // ...and still asked within every minute (I1), its pace held in memory rather than lost.
    const starts = [fullAt, ...service.log.slice(healthy).map((r) => r.start), clock.now()];
    const gaps = starts.slice(1).map((s, i) => s - starts[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(61_000);
    tracker.stop();
  });
});

describe('a refused stuck-warning mark (hostile)', () => {
  it('does not stop the checks of the other intents: a transfer that succeeds meanwhile is still told', async () => {
    const store = new RefusingMarks();
    const warned: string[] = [];
    const { clock, tracker, add, notifier } = engineHarness(20_000, null, { store });
    (notifier as unknown as { showStuck: (i: TrackedIntent, m: number) => Promise<void> }).showStuck = async (i) => {
      warned.push(i.intentId);
    };
    // 1 executes forever (stuck past 15 min); 2 executes and succeeds at about 16 min.
    add(1, [[1_000, 'EXECUTING', ['PENDING', 'UNKNOWN', 'UNKNOWN']]]);
    add(2, [
      [1_000, 'EXECUTING', ['PENDING', 'UNKNOWN', 'UNKNOWN']],
      [16 * MIN, 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']],
    ]);
    await tracker.track(sid(1));
    await tracker.track(sid(2));
    await clock.advance(15.5 * MIN);
    expect(notifier.shown).toEqual([]);
    await clock.advance(3 * MIN);
    expect(warned).toContain(sid(1));
    expect(store.refused).toBeGreaterThan(0);
    // 2 succeeded at about 16 min: told within a long-poll or two, the stuck mark's refusals notwithstanding.
    expect(notifier.shown.map((t) => [t.intentId, t.status])).toEqual([[sid(2), 'SUCCEEDED']]);
    // Room comes back: the mark is written, and the warning is not asked for again.
    store.refuse = false;
    await clock.advance(2 * MIN);
    expect((await store.get(sid(1)))?.stuckNotifiedAt).toBeGreaterThan(0);
    const asked = warned.length;
    await clock.advance(10 * MIN);
    expect(warned.length).toBe(asked);
    tracker.stop();
  });
});

describe('the stuck warning under a service that keeps a read in flight (hostile)', () => {
  it('two intents stuck, long-polled without pause, their leg states flapping, the notifier grouping each warning 3 s: both are warned', async () => {
    const warned: string[] = [];
    const { clock, tracker, add, notifier } = engineHarness(20_000, null);
    (notifier as unknown as { showStuck: (i: TrackedIntent, m: number, due?: () => boolean) => Promise<unknown> }).showStuck = async (
      i,
      _m,
      due,
    ) => {
      // Grouping: the decision is asked again when the warning's turn comes, 3 s later.
      await clock.sleep(3_000);
      if (due && !due()) return false;
      warned.push(i.intentId);
      return undefined;
    };
    // Each intent's leg states change every 7 s and come back (a flapping service): a long-poll answer is due at
    // almost any moment, and a read of each is in flight most of the time.
    const flapping = (offset: number): Array<[number, string, string[]]> =>
      Array.from({ length: 260 }, (_, k) => [
        k === 0 ? 1_000 + offset : 7_000,
        'EXECUTING',
        k % 2 === 0 ? ['PENDING', 'UNKNOWN', 'UNKNOWN'] : ['SUCCEEDED', 'PENDING', 'UNKNOWN'],
      ]);
    add(1, flapping(0));
    add(2, flapping(3_500));
    await tracker.track(sid(1));
    await tracker.track(sid(2));
    await clock.advance(14 * MIN);
    expect(warned).toEqual([]);
    // The limit is 15 min from the start; both within two minutes of it.
    await clock.advance(3 * MIN);
    expect(new Set(warned)).toEqual(new Set([sid(1), sid(2)]));
    tracker.stop();
  });
});
