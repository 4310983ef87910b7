/**
 * `ServiceClock.settled` against `Date` headers that lie together (all an hour behind, say) — the world campaign's W1
 * failures of seed 20261128: run 9524 (four of the first five headers an hour behind, the local clock an hour slow with
 * them, settled it) and run 14244 (9 of the last 12 an hour behind settled it, although the clock had settled on the
 * truth before and a receipt's `updatedAt` proved the service's time 48 min above them). A refusal is not for ever:
 * 12 headers in a row that all agree outvote the evidence that refused them.
 */
import { describe, expect, it } from 'vitest';
import { ServiceClock } from '@/lib/tracker/service-clock';

const T = 1_800_000_000_000;
const MIN = 60_000;
const HOUR = 60 * MIN;

/** A clock on a monotonic time `m` (moved by `step`), its local wall clock `skewMs` off the service's (time T + m). */
function clockAt(skewMs: number) {
  let m = 0;
  const c = new ServiceClock({ now: () => T + m + skewMs, monotonic: () => m });
  return {
    c,
    /** One answer 1 s later whose Date header is `lieMs` off the service's time. */
    date(lieMs = 0) {
      m += 1_000;
      c.observeDate(T + m + lieMs);
    },
    now: () => T + m,
  };
}

describe('ServiceClock.settled and headers that lie together', () => {
  it('four of five headers an hour behind with a local clock as slow do not settle it (run 9524)', () => {
    const w = clockAt(-HOUR);
    for (const lie of [-HOUR, -HOUR, -HOUR, 0, -HOUR]) w.date(lie);
    expect(w.c.settled()).toBeUndefined();
    // One more agreeing with the local clock: five of six, still too few when only the local clock backs them.
    w.date(-HOUR);
    expect(w.c.settled()).toBeUndefined();
  });

  it('the truth, backed by the local clock, with one header apart, settles on six of seven', () => {
    const w = clockAt(0);
    w.date(72 * 365 * 24 * HOUR);
    for (let i = 0; i < 5; i++) w.date();
    expect(w.c.settled()).toBeUndefined();
    w.date();
    const s = w.c.settled()!;
    expect(s.earliest).toBeLessThanOrEqual(w.now());
    expect(s.latest).toBeGreaterThanOrEqual(w.now());
  });

  it('a floor from updatedAt above the agreement refuses it: 9 of 12 headers an hour behind (run 14244)', () => {
    // The local clock 10 min fast corroborates nothing; three true headers and a receipt updated 12 min ago.
    const w = clockAt(10 * MIN);
    for (let i = 0; i < 3; i++) w.date();
    w.c.observeAtLeast(w.now() - 12 * MIN);
    for (let i = 0; i < 9; i++) w.date(-HOUR);
    expect(w.c.settled()).toBeUndefined();
  });

  it('once settled, a later agreement far from it is refused, behind or ahead, until 12 in a row agree', () => {
    for (const lie of [-HOUR, 20 * MIN]) {
      const w = clockAt(10 * MIN);
      for (let i = 0; i < 12; i++) w.date();
      expect(w.c.settled()).toBeDefined();
      for (let i = 0; i < 9; i++) w.date(lie);
      expect(w.c.settled()).toBeUndefined();
      for (let i = 0; i < 2; i++) w.date(lie);
      expect(w.c.settled()).toBeUndefined();
      // Twelve in a row: what the clock settled on before is outvoted (a refusal is not for ever).
      w.date(lie);
      expect(w.c.settled()!.earliest).toBeCloseTo(w.now() + lie, -4);
    }
  });

  it('a floor from a receipt ahead blocks only until 12 headers in a row agree, then is forgotten', () => {
    // The first header 20 min ahead: the receipt's updatedAt 5 min ahead lies within it and raises the floor.
    const w = clockAt(0);
    w.date(20 * MIN);
    w.c.observeAtLeast(w.now() + 5 * MIN);
    for (let i = 0; i < 11; i++) w.date();
    expect(w.c.settled()).toBeUndefined();
    w.date();
    const s = w.c.settled()!;
    expect(s.earliest).toBeLessThanOrEqual(w.now());
    expect(s.latest).toBeGreaterThanOrEqual(w.now());
    // Forgotten: with one header lying behind among the next 12, the clock stays settled.
    w.date(-HOUR);
    expect(w.c.settled()).toBeDefined();
  });
});
