import { describe, expect, it } from 'vitest';
import { stalenessBound } from '@/lib/tracker/policy';
import { DEFAULT_TUNING } from '@/lib/tracker/types';
import { engineHarness, sid } from './engine-harness';

describe('more intents tracked than a history page holds', () => {
  it('holds at most one long-poll at a time once history can be read, and still reads every intent within S(N) (I1)', async () => {
    const n = 150;
    const { clock, tracker, service, add } = engineHarness(20_000);
    for (let i = 1; i <= n; i++) add(i);
    const t0 = clock.now();
    await tracker.trackMany(Array.from({ length: n }, (_, i) => ({ intentId: sid(i + 1), extra: {} })));
    await clock.advance(30 * 60_000);
    tracker.stop();
    // The first answer brings a creation time (history can be read from then on): from then on at most one long-poll
    // is in flight at any time.
    const firstAnswer = Math.min(...service.log.filter((e) => e.outcome === 'answer').map((e) => e.end!));
    const waits = service.log.filter((e) => e.op === 'wait' && e.start > firstAnswer);
    expect(waits.length).toBeGreaterThan(0);
    for (const w of waits) expect(waits.filter((o) => o.start < w.start && (o.end ?? Number.POSITIVE_INFINITY) > w.start)).toEqual([]);
    expect(service.log.some((e) => e.op === 'history')).toBe(true);
    // I1, as the campaign's oracle checks it: every intent answered individually within S(N) + 1 s of its tracking
    // and of its last answer; the stretch still open at the end of the run gets one second more.
    const bound = stalenessBound(n, DEFAULT_TUNING) + 1_000;
    for (let i = 1; i <= n; i++) {
      const answers = service.log
        .filter((e) => e.intentId === sid(i) && (e.op === 'receipt' || e.op === 'wait') && e.outcome === 'answer')
        .map((e) => e.end!);
      let last = t0;
      for (const at of answers) {
        expect(at - last, sid(i)).toBeLessThanOrEqual(bound);
        last = at;
      }
      expect(clock.now() - last, sid(i)).toBeLessThanOrEqual(bound + 1_000);
    }
  }, 60_000);
});
