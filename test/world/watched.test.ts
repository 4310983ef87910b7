/**
 * W1's reading of what the history hid from the watched check (test/world/watched.ts `hiddenByHistory`, `walkCut`), on
 * hand-made pages: a row further down than every walk read is the history's doing when the last walk covering it was
 * cut by a repeated cursor; an earlier walk lost with a dying worker, or stopped by a store's refusal, does not change
 * that, one the check left while alive and able to write does (a defect).
 */
import { describe, expect, it } from 'vitest';
import { hiddenByHistory, type WatchedPage, walkCut } from './watched';

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
