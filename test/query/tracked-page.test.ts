/** The tracked list as the worker hands it to the popup: the first screenful, and a change patched in. */
import { describe, expect, it } from 'vitest';
import { firstScreen, newestFirst, patchList } from '@/lib/query/tracked-page';
import type { TrackedIntent } from '@/lib/store';

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const intent = (n: number, over: Partial<TrackedIntent> = {}): TrackedIntent => ({
  intentId: hex(n),
  addedAt: n * 1_000,
  lastStates: [],
  phase: 'final',
  status: 'SUCCEEDED',
  notification: 'shown',
  ...over,
});
const ids = (list: readonly TrackedIntent[]) => list.map((t) => t.intentId);

describe('firstScreen', () => {
  it('gives the first rows as the list shows them: in flight first, each group newest added first', () => {
    const list = newestFirst([intent(1), intent(2, { phase: 'tracking', status: 'EXECUTING' }), intent(3), intent(4), intent(5)]);
    expect(ids(list)).toEqual([hex(5), hex(4), hex(3), hex(2), hex(1)]);
    expect(ids(firstScreen(list, 3))).toEqual([hex(2), hex(5), hex(4)]);
    expect(ids(firstScreen(list, 10))).toEqual([hex(2), hex(5), hex(4), hex(3), hex(1)]);
    expect(firstScreen(list, 0)).toEqual([]);
  });
});

describe('patchList', () => {
  const list = newestFirst([1, 2, 3, 4, 5].map((n) => intent(n, n === 3 ? { phase: 'tracking', status: 'EXECUTING' } : {})));

  it('replaces the records named, keeps every other record object and the order', () => {
    const done = intent(3);
    const out = patchList(list, [hex(3)], [done]);
    expect(ids(out)).toEqual(ids(list));
    expect(out[2]).toBe(done);
    for (const i of [0, 1, 3, 4]) expect(out[i]).toBe(list[i]);
    expect(out).not.toBe(list);
  });

  it('drops an intent named but no longer tracked, and places a new one by when it was added', () => {
    const out = patchList(list, [hex(4), hex(9), hex(0x25)], [intent(9), { ...intent(0x25), addedAt: 3_500 }]);
    expect(ids(out)).toEqual([hex(9), hex(5), hex(0x25), hex(3), hex(2), hex(1)]);
  });

  it('ignores records it was not told changed, and an intent tracked again moves to its new place', () => {
    const again = { ...intent(1), addedAt: 6_000 };
    const out = patchList(list, [hex(1)], [again, intent(2, { status: 'FAILED' })]);
    expect(ids(out)).toEqual([hex(1), hex(5), hex(4), hex(3), hex(2)]);
    expect(out[0]).toBe(again);
    expect(out[4]).toBe(list[3]);
  });
});
