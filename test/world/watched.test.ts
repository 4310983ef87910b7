/**
 * W1's reading of what the history hid from the watched check (test/world/watched.ts `hiddenByHistory`, `walkCut`), on
 * hand-made pages: a row further down than every walk read is the history's doing when the last walk covering it was
 * cut by a repeated cursor; an earlier walk lost with a dying worker, or stopped by a store's refusal, does not change
 * that, one the check left while alive and able to write does (a defect).
 */
import { describe, expect, it } from 'vitest';
import { hiddenByHistory, settledOnLies, type WatchedPage, walkCut } from './watched';

const S = 1_000;
const END = 1_000 * S;
/** A page of the walk from `fromTime` 0 asked with cursor `after`, answering `next` as its cursor, more to come. */
const page = (at: number, after: number | undefined, next: number): WatchedPage => ({
  at,
  fromTime: 0,
  after,
  listed: ['0xstranger'],
  answer: { intents: [{ intentId: '0xstranger' }], nextPage: { after: next, more: true } },
});
/** A row created at 1 s: below every page's cursor (5 s, 6 s), never listed. */
const hidden = (pages: WatchedPage[], deaths: Array<{ at: number; kind: string }>) =>
  hiddenByHistory(pages, '0xc2', 1 * S, END, () => END, deaths);

describe('hiddenByHistory: a row below every walk', () => {
  // A first walk read one page (its cursor 6 s), the worker died; the next walk read from the top and its second page repeated its cursor.
  const pages = [page(10 * S, undefined, 6 * S), page(100 * S, undefined, 5 * S), page(101 * S, 5 * S, 5 * S)];

  it('is the history’s doing when the earlier walk was lost with a dying worker', () => {
    expect(hidden(pages, [{ at: 11 * S, kind: 'kill' }])).toBe(
      'the history listed more rows before it than the check read while it was ticked',
    );
  });

  it('is the worker’s when the earlier walk was left with more to come and no death', () => {
    expect(hidden(pages, [])).toBeUndefined();
    expect(hidden(pages, [{ at: 100 * S, kind: 'idle' }])).toBeUndefined();
  });

  it('is the history’s doing when the earlier walk stopped on a store’s refusal after its page (read again from the top)', () => {
    const refused = (from: number, to: number) => hiddenByHistory(pages, '0xc2', 1 * S, END, () => END, [], [{ from, to }]);
    expect(refused(10 * S, 12 * S)).toBe('the history listed more rows before it than the check read while it was ticked');
    // A refusal over before the page, or after the next walk began, stopped nothing of that walk.
    expect(refused(2 * S, 9 * S)).toBeUndefined();
    expect(refused(100 * S, 120 * S)).toBeUndefined();
  });

  it('is the worker’s when the last walk too was lost with a death (the next worker never read on)', () => {
    const lost = [page(10 * S, undefined, 6 * S), page(100 * S, undefined, 5 * S)];
    expect(
      hidden(lost, [
        { at: 11 * S, kind: 'kill' },
        { at: 101 * S, kind: 'kill' },
      ]),
    ).toBeUndefined();
  });
});

describe('walkCut', () => {
  it('names what cut a walk: a repeated cursor, a death before its next page, or nothing', () => {
    const [a, b, c] = [page(10 * S, undefined, 6 * S), page(100 * S, undefined, 5 * S), page(101 * S, 5 * S, 5 * S)];
    const all = [a, b, c];
    expect(walkCut(all, b, () => END)).toBe('history');
    expect(walkCut(all, a, () => END, [{ at: 50 * S, kind: 'restart' }])).toBe('death');
    expect(walkCut(all, a, () => END, [{ at: 200 * S, kind: 'kill' }])).toBe(false);
    expect(walkCut(all, a, () => END, [{ at: 50 * S, kind: 'end' }])).toBe(false);
    expect(walkCut(all, a, () => END, [], [{ from: 5 * S, to: 11 * S }])).toBe('refusal');
    expect(walkCut(all, a, () => END, [], [{ from: 150 * S, to: 200 * S }])).toBe(false);
    // More than a check's minute after the page: not what stopped it.
    expect(walkCut(all, a, () => END, [], [{ from: 80 * S, to: 90 * S }])).toBe(false);
  });
});

describe('settledOnLies: a service clock that may have settled on Dates lying behind', () => {
  const HOUR = 3_600_000;
  /** Samples 1 s apart in life 0, each `offsets[k]` off the truth. */
  const dates = (offsets: number[]) => offsets.map((offsetMs, k) => ({ at: (k + 1) * S, life: 0, offsetMs }));

  // Seed 20261212, run 5224: a fresh worker's four asks all answered an hour behind, the local clock an hour slow.
  it('4 of 4 an hour behind with the local clock as slow: from the fourth', () => {
    expect(settledOnLies(dates([-HOUR, -HOUR, -HOUR, -HOUR, 0]), () => -HOUR, END)).toEqual([{ at: 4 * S, to: 5 * S, lieMs: -HOUR }]);
  });

  it('not with a true local clock, nor with a dissent among five (4 of 5), nor three alone', () => {
    expect(settledOnLies(dates([-HOUR, -HOUR, -HOUR, -HOUR]), () => 0, END)).toEqual([]);
    expect(settledOnLies(dates([-HOUR, -HOUR, 0, -HOUR, -HOUR]), () => -HOUR, END)).toEqual([]);
    expect(settledOnLies(dates([-HOUR, -HOUR, -HOUR]), () => -HOUR, END)).toEqual([]);
  });

  it('not apart from the truth settled on before, until 12 agree (run 14244)', () => {
    const truth = Array<number>(12).fill(0);
    expect(settledOnLies(dates([...truth, ...Array<number>(11).fill(-HOUR)]), () => 0, END)).toEqual([]);
    expect(settledOnLies(dates([...truth, ...Array<number>(12).fill(-HOUR)]), () => 0, END).map((x) => x.at)).toEqual([24 * S]);
  });

  it('8 agreeing of the kept, whatever the local clock', () => {
    const w = settledOnLies(dates([0, 0, ...Array<number>(8).fill(-HOUR)]), () => 0, END);
    expect(w.map((x) => x.at)).toEqual([10 * S]);
  });
});
