/**
 * The pure time functions of lib/tracker/tracker-time.ts field by field (issue 27, deliverable 3: "a deadline stored as
 * wall time is clamped on every read"): each time `clampTimes` reads is clamped on its own and nothing else changes;
 * `shiftTimes` moves each time and adds none; `sameTimes` tells apart records that differ in any one time;
 * `shiftPause` moves a pause that has only one of its two times. Every expected value below is worked out by hand from
 * `now` and the record's times. The tests of ./tracker-time.test.ts move every field at once, which leaves a field
 * clamped, moved or compared on its own untested.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { clampTimes, sameTimes, shiftPause, shiftTimes } from '@/lib/tracker/tracker-time';
import { trackedRecord } from './fakes';

const NOW = 1_000_000;
/** `maxDelayMs` of every `clampTimes` call here (ms). */
const MAX = 60_000;
/** A time an hour ahead of {@link NOW}: written by a worker whose clock was an hour ahead. */
const AHEAD = NOW + 3_600_000;

/** A record every time of which is in the past of {@link NOW} (or, for waits, within its length). */
const settled = (): TrackedIntent =>
  trackedRecord('0x1', {
    addedAt: NOW - 50_000,
    lastCheckedAt: NOW - 40_000,
    resumedAt: NOW - 30_000,
    lastChangeAt: NOW - 20_000,
    lastError: { kind: 'NotFound', message: 'not found', at: NOW - 10_000 },
    notFoundGrace: { servedMs: 5_000, at: NOW - 5_000 },
    retry: { attempt: 2, nextAt: NOW + 4_000, at: NOW - 4_000 },
    nextCheckAt: NOW + 30_000,
  });

describe('clampTimes, one time at a time', () => {
  it('returns the record itself when no time is ahead of now, also with every time exactly now', () => {
    const t = settled();
    expect(clampTimes(t, NOW, MAX)).toBe(t);
    const atNow = trackedRecord('0x2', {
      addedAt: NOW,
      lastCheckedAt: NOW,
      resumedAt: NOW,
      lastChangeAt: NOW,
      lastError: { kind: 'x', message: 'x', at: NOW },
      notFoundGrace: { servedMs: 0, at: NOW },
      // A back-off of 8 s set at now, and a next check a whole max delay away: neither is past its length.
      retry: { attempt: 1, nextAt: NOW + 8_000, at: NOW },
      nextCheckAt: NOW + MAX,
    });
    expect(clampTimes(atNow, NOW, MAX)).toBe(atNow);
    const bare = trackedRecord('0x3', { addedAt: NOW - 1 });
    expect(clampTimes(bare, NOW, MAX)).toBe(bare);
  });

  const events = [
    ['addedAt', (t: TrackedIntent) => ({ ...t, addedAt: AHEAD }), (t: TrackedIntent) => ({ ...t, addedAt: NOW })],
    ['lastCheckedAt', (t: TrackedIntent) => ({ ...t, lastCheckedAt: AHEAD }), (t: TrackedIntent) => ({ ...t, lastCheckedAt: NOW })],
    ['resumedAt', (t: TrackedIntent) => ({ ...t, resumedAt: AHEAD }), (t: TrackedIntent) => ({ ...t, resumedAt: NOW })],
    ['lastChangeAt', (t: TrackedIntent) => ({ ...t, lastChangeAt: AHEAD }), (t: TrackedIntent) => ({ ...t, lastChangeAt: NOW })],
    [
      'lastError.at',
      (t: TrackedIntent) => ({ ...t, lastError: { ...t.lastError!, at: AHEAD } }),
      (t: TrackedIntent) => ({ ...t, lastError: { ...t.lastError!, at: NOW } }),
    ],
    [
      'notFoundGrace.at',
      (t: TrackedIntent) => ({ ...t, notFoundGrace: { ...t.notFoundGrace!, at: AHEAD } }),
      (t: TrackedIntent) => ({ ...t, notFoundGrace: { ...t.notFoundGrace!, at: NOW } }),
    ],
  ] as const;
  for (const [name, ahead, atNow] of events)
    it(`reads ${name} an hour ahead as now, and nothing else changes`, () => {
      const t = ahead(settled());
      const c = clampTimes(t, NOW, MAX);
      expect(c).not.toBe(t);
      expect(c).toStrictEqual(atNow(settled()));
    });

  it('adds no time a record does not have (a clamped record keeps its absent times absent)', () => {
    const t = trackedRecord('0x4', { addedAt: AHEAD });
    expect(clampTimes(t, NOW, MAX)).toStrictEqual(trackedRecord('0x4', { addedAt: NOW }));
  });

  it('a back-off is read at most its own length from now (nextAt − at), not the max delay', () => {
    // 8 s long, written an hour ahead: due 8 s from now.
    const t = { ...settled(), retry: { attempt: 3, nextAt: AHEAD + 8_000, at: AHEAD } };
    expect(clampTimes(t, NOW, MAX)).toStrictEqual({ ...settled(), retry: { attempt: 3, nextAt: NOW + 8_000, at: AHEAD } });
    // 8 s long and due 20 s from now (its start in the future): 12 s too far, due 8 s from now.
    const early = { ...settled(), retry: { attempt: 3, nextAt: NOW + 20_000, at: NOW + 12_000 } };
    expect(clampTimes(early, NOW, MAX).retry).toEqual({ attempt: 3, nextAt: NOW + 8_000, at: NOW + 12_000 });
  });

  it('a back-off without its start is read at most the max delay from now', () => {
    const t = { ...settled(), retry: { attempt: 3, nextAt: AHEAD } };
    expect(clampTimes(t, NOW, MAX)).toStrictEqual({ ...settled(), retry: { attempt: 3, nextAt: NOW + MAX } });
    const within = { ...settled(), retry: { attempt: 3, nextAt: NOW + MAX } };
    expect(clampTimes(within, NOW, MAX)).toBe(within);
  });

  it('a next check is read at most the max delay from now', () => {
    const t = { ...settled(), nextCheckAt: AHEAD };
    expect(clampTimes(t, NOW, MAX)).toStrictEqual({ ...settled(), nextCheckAt: NOW + MAX });
    const oneMore = { ...settled(), nextCheckAt: NOW + MAX + 1 };
    expect(clampTimes(oneMore, NOW, MAX).nextCheckAt).toBe(NOW + MAX);
  });
});

describe('shiftTimes, one time at a time', () => {
  it('moves every time it reads back by the shift, and the rest not', () => {
    const t = settled();
    expect(shiftTimes(t, 7_000)).toStrictEqual({
      ...t,
      addedAt: NOW - 57_000,
      lastCheckedAt: NOW - 47_000,
      resumedAt: NOW - 37_000,
      lastChangeAt: NOW - 27_000,
      lastError: { kind: 'NotFound', message: 'not found', at: NOW - 17_000 },
      notFoundGrace: { servedMs: 5_000, at: NOW - 12_000 },
      retry: { attempt: 2, nextAt: NOW - 3_000, at: NOW - 11_000 },
      nextCheckAt: NOW + 23_000,
    });
  });

  it('adds no time a record does not have, and moves a back-off without its start', () => {
    const t = trackedRecord('0x5', { addedAt: 10_000, retry: { attempt: 1, nextAt: 20_000 } });
    expect(shiftTimes(t, 1_000)).toStrictEqual(trackedRecord('0x5', { addedAt: 9_000, retry: { attempt: 1, nextAt: 19_000 } }));
  });
});

describe('sameTimes', () => {
  it('is true for equal times (a damaged NaN matches itself) and false when any one of them differs', () => {
    const t = settled();
    expect(sameTimes(t, { ...t })).toBe(true);
    expect(sameTimes({ ...t, lastCheckedAt: Number.NaN }, { ...t, lastCheckedAt: Number.NaN })).toBe(true);
    const edits: Array<[string, (r: TrackedIntent) => TrackedIntent]> = [
      ['addedAt', (r) => ({ ...r, addedAt: r.addedAt + 1 })],
      ['lastCheckedAt', (r) => ({ ...r, lastCheckedAt: r.lastCheckedAt! + 1 })],
      ['resumedAt', (r) => ({ ...r, resumedAt: r.resumedAt! + 1 })],
      ['lastChangeAt', (r) => ({ ...r, lastChangeAt: r.lastChangeAt! + 1 })],
      ['nextCheckAt', (r) => ({ ...r, nextCheckAt: r.nextCheckAt! + 1 })],
      ['lastError.at', (r) => ({ ...r, lastError: { ...r.lastError!, at: r.lastError!.at + 1 } })],
      ['retry.nextAt', (r) => ({ ...r, retry: { ...r.retry!, nextAt: r.retry!.nextAt + 1 } })],
      ['retry.at', (r) => ({ ...r, retry: { ...r.retry!, at: r.retry!.at! + 1 } })],
    ];
    for (const [name, edit] of edits) expect([name, sameTimes(t, edit(t))]).toEqual([name, false]);
  });
});

describe('shiftPause with one of its two times', () => {
  it('moves a pause that has only its end, or only its start, and adds neither', () => {
    expect(shiftPause({ pausedUntil: 5_000 }, 2_000)).toStrictEqual({ pausedUntil: 7_000 });
    expect(shiftPause({ pausedAt: 1_000, pauseReason: 'x' }, -500)).toStrictEqual({ pausedAt: 500, pauseReason: 'x' });
  });
});
