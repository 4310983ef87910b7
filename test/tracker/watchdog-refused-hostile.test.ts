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
