import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { HistorySweeper, historyGroups } from '@/lib/tracker/sweeper';

const t = (intentId: string, owner: string | undefined, createdAt: string | undefined): TrackedIntent => ({
  intentId,
  addedAt: 0,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
  receipt: { intentId: 'x', status: 'EXECUTING', ...(owner ? { ownerAddress: owner } : {}), ...(createdAt ? { createdAt } : {}) },
});
const row = (intentId: string, status: string, receiptId = intentId) => ({ intentId, status, receipt: { intentId: receiptId, status } });

describe('historyGroups', () => {
  it('groups by owner (lower case) with the oldest creation time in Unix seconds', () => {
    expect(
      historyGroups([
        t('a', '0xAB', '2026-11-22T10:00:10.900Z'),
        t('b', '0xab', '2026-11-22T10:00:05.000Z'),
        t('c', '0xcd', '2026-11-22T11:00:00Z'),
      ]),
    ).toEqual([
      { key: '0xab', owner: '0xab', fromTime: Date.parse('2026-11-22T10:00:05Z') / 1000 },
      { key: '0xcd', owner: '0xcd', fromTime: Date.parse('2026-11-22T11:00:00Z') / 1000 },
    ]);
  });

  it('lists the owner groups in one order, whatever the order of the intents', () => {
    const at = '2026-11-22T10:00:00Z';
    const keys = (owners: string[]) => historyGroups(owners.map((o) => t(o, o, at))).map((g) => g.key);
    expect(keys(['0xc', '0xa', '0xb'])).toEqual(['0xa', '0xb', '0xc']);
    expect(keys(['0xb', '0xc', '0xa'])).toEqual(['0xa', '0xb', '0xc']);
  });

  it('one query for all past 3 owners, or when an owner is unknown; none without creation times', () => {
    const four = ['1', '2', '3', '4'].map((n) => t(n, `0x${n}`, `2026-11-22T10:0${n}:00Z`));
    expect(historyGroups(four)).toEqual([{ key: '*', fromTime: Date.parse('2026-11-22T10:01:00Z') / 1000 }]);
    expect(historyGroups(four.slice(0, 3))).toHaveLength(3);
    expect(historyGroups([t('a', undefined, '2026-11-22T10:00:00Z'), t('b', '0x1', '2026-11-22T09:00:00Z')])).toEqual([
      { key: '*', fromTime: Date.parse('2026-11-22T09:00:00Z') / 1000 },
    ]);
    expect(historyGroups([t('a', '0x1', undefined), t('b', '0x1', 'not a date')])).toEqual([]);
  });
});

describe('HistorySweeper', () => {
  const intents = [t('a', '0xa', '2026-11-22T10:00:00Z'), t('b', '0xb', '2026-11-22T10:00:00Z')];

  it('asks for the final statuses of one owner at a time, following the cursor up to the page limit', () => {
    const s = new HistorySweeper(2);
    const first = s.next(intents)!;
    expect(first).toMatchObject({ byOwnerAddress: '0xa', page: { pageSize: 100 } });
    expect(first.byStatuses).toEqual(['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'INVALID']);
    expect(first.page.after).toBeUndefined();
    expect(s.midCycle).toBe(false);
    s.answer({ intents: [], nextPage: { after: 42, more: true } });
    expect(s.midCycle).toBe(true);
    expect(s.next(intents)).toMatchObject({ byOwnerAddress: '0xa', page: { after: 42 } });
    s.answer({ intents: [], nextPage: { after: 41, more: true } });
    expect(s.midCycle).toBe(false);
    // Two pages: the next owner's walk starts from its first page (the first owner's goes on from 41 on its turn).
    expect(s.next(intents)).toMatchObject({ byOwnerAddress: '0xb', page: { pageSize: 100 } });
    expect(s.next(intents)?.page.after).toBeUndefined();
  });

  it('visits every owner in turn, even when the tracked intents come in another order each time', () => {
    const s = new HistorySweeper(5);
    const owners: Array<string | undefined> = [];
    for (const list of [intents, [...intents].reverse(), intents, [...intents].reverse()]) {
      owners.push(s.next(list)?.byOwnerAddress);
      s.answer({ intents: [] });
    }
    expect(owners).toEqual(['0xa', '0xb', '0xa', '0xb']);
  });

  it('the first page of a cycle carries no cursor; a page that says more but gives none ends the cycle', () => {
    const s = new HistorySweeper(5);
    expect(s.next(intents)).toStrictEqual({
      byStatuses: ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'INVALID'],
      fromTime: Date.parse('2026-11-22T10:00:00Z') / 1000,
      byOwnerAddress: '0xa',
      page: { pageSize: 100 },
    });
    s.answer({ intents: [], nextPage: { more: true } });
    expect(s.midCycle).toBe(false);
    expect(s.next(intents)).toMatchObject({ byOwnerAddress: '0xb', page: { pageSize: 100 } });
  });

  it('ends a cycle on the last page, on more: false, and on a cursor it has seen', () => {
    const s = new HistorySweeper(5);
    s.next(intents);
    s.answer({ intents: [] });
    expect(s.next(intents)?.byOwnerAddress).toBe('0xb');
    s.answer({ intents: [], nextPage: { after: 9, more: false } });
    expect(s.next(intents)?.byOwnerAddress).toBe('0xa');
    s.answer({ intents: [], nextPage: { after: 7, more: true } });
    s.answer({ intents: [], nextPage: { after: 7, more: true } });
    expect(s.next(intents)?.byOwnerAddress).toBe('0xb');
  });

  it('returns only rows that say an intent is final, and whose receipt is of that intent', () => {
    const s = new HistorySweeper(5);
    s.next(intents);
    const rows = s.answer({
      intents: [
        row('a', 'SUCCEEDED'),
        row('b', 'EXECUTING'),
        row('c', 'REFUNDED', 'd'),
        { intentId: 'e', status: 'FAILED' },
        row('f', 'INVALID'),
      ],
    });
    expect(rows.map((r) => r.intentId)).toEqual(['a', 'f']);
  });

  it("goes on from where a batch stopped on the group's next turn: every page of a long history is read in turn", () => {
    // 12 pages of final rows, 5 a batch: the old sweeper started each batch from the first page again and never asked
    // for page 6 onwards, so intents created first were never found in history.
    const s = new HistorySweeper(5);
    const one = [t('a', '0xa', '2026-11-22T10:00:00Z')];
    const asked: Array<number | undefined> = [];
    for (let i = 0; i < 14; i++) {
      const req = s.next(one)!;
      const at = req.page.after ?? 1_000;
      asked.push(req.page.after);
      s.answer({ intents: [], ...(at > 989 ? { nextPage: { after: at - 1, more: true } } : {}) });
    }
    // Pages from the first (no cursor) down to the cursor 989 (the 12th page, the last), then the first again.
    expect(asked).toEqual([undefined, 999, 998, 997, 996, 995, 994, 993, 992, 991, 990, 989, undefined, 999]);
    expect(asked.slice(12)).toEqual([undefined, 999]);
  });

  it("keeps each owner's walk apart, and a failed page starts that owner's walk from its first page", () => {
    const s = new HistorySweeper(1);
    expect(s.next(intents)?.page.after).toBeUndefined();
    s.answer({ intents: [], nextPage: { after: 50, more: true } });
    expect(s.next(intents)).toMatchObject({ byOwnerAddress: '0xb' });
    s.answer({ intents: [], nextPage: { after: 80, more: true } });
    expect(s.next(intents)).toMatchObject({ byOwnerAddress: '0xa', page: { after: 50 } });
    s.reset();
    expect(s.next(intents)).toMatchObject({ byOwnerAddress: '0xa' });
    expect(s.next(intents)?.page.after).toBeUndefined();
    s.answer({ intents: [], nextPage: { after: 49, more: true } });
    expect(s.next(intents)).toMatchObject({ byOwnerAddress: '0xb', page: { after: 80 } });
  });

  it('starts the group over after a failed page, and has nothing to ask without creation times', () => {
    const s = new HistorySweeper(5);
    s.next(intents);
    s.answer({ intents: [], nextPage: { after: 5, more: true } });
    s.reset();
    expect(s.next(intents)?.page.after).toBeUndefined();
    expect(new HistorySweeper(5).next([t('x', '0x1', undefined)])).toBeUndefined();
  });
});
