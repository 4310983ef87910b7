/** Search and filter over the tracked list: what each filter keeps, what a search looks in, 5,000 intents. */
import { describe, expect, it } from 'vitest';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import { filterTracked, passes, searchIndex } from '@/lib/query/tracked-filter';
import type { TrackedIntent } from '@/lib/store';

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const intent = (n: number, over: Partial<TrackedIntent> = {}): TrackedIntent => ({
  intentId: hex(n),
  addedAt: n,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
  ...over,
});
const receipt = (n: number, over: Partial<IntentReceipt> = {}) =>
  ({
    intentId: hex(n),
    status: 'SUCCEEDED',
    originChainId: 1,
    destinationChainId: 8453,
    summary: { originTokenMetadata: { symbol: 'USDC', decimals: 6 }, destinationTokenMetadata: { symbol: 'WETH', decimals: 18 } },
    destinationTransaction: { status: 'SUCCEEDED', txnHash: `0x${'d'.repeat(63)}${n % 10}` },
    ...over,
  }) as IntentReceipt;

describe('passes', () => {
  it('sorts intents by where they stand', () => {
    const flying = intent(1, { status: 'EXECUTING' });
    const won = intent(2, { phase: 'final', status: 'SUCCEEDED' });
    const refunded = intent(3, { phase: 'final', status: 'REFUNDED' });
    const lost = intent(4, { phase: 'not-found' });
    const late = intent(5, { phase: 'expired', status: 'COMMITTED' });
    const all = [flying, won, refunded, lost, late];
    expect(all.filter((t) => passes(t, 'in-flight'))).toEqual([flying]);
    expect(all.filter((t) => passes(t, 'succeeded'))).toEqual([won]);
    expect(all.filter((t) => passes(t, 'failed'))).toEqual([refunded]);
    expect(all.filter((t) => passes(t, 'stopped'))).toEqual([lost, late]);
    expect(all.filter((t) => passes(t, 'all'))).toEqual(all);
  });
});

describe('filterTracked', () => {
  it('matches every word, any case, in the intentId, status, chains, token symbols and leg hashes', () => {
    const list = [
      intent(0xabc, { status: 'SUCCEEDED', phase: 'final', receipt: receipt(0xabc) }),
      intent(2, { status: 'EXECUTING', receipt: receipt(2, { status: 'EXECUTING', destinationChainId: 10 }) }),
      intent(3),
    ];
    const index = searchIndex(list);
    const ids = (q: string, f: Parameters<typeof filterTracked>[3] = 'all') => filterTracked(list, index, q, f).map((t) => t.intentId);
    expect(ids('ABC')).toEqual([hex(0xabc)]);
    expect(ids('executing')).toEqual([hex(2)]);
    expect(ids('base weth')).toEqual([hex(0xabc)]);
    expect(ids('usdc')).toEqual([hex(0xabc), hex(2)]);
    expect(ids(`dddd${'d'.repeat(40)}2`)).toEqual([hex(2)]);
    expect(ids('usdc', 'in-flight')).toEqual([hex(2)]);
    expect(ids('nothing like it')).toEqual([]);
    expect(filterTracked(list, index, '  ', 'all')).toBe(list);
  });

  it('answers over 5,000 intents, in order, from an index built once', () => {
    const list = Array.from({ length: 5_000 }, (_, i) =>
      intent(
        i,
        i % 10 === 0 ? { status: 'EXECUTING', receipt: receipt(i, { status: 'EXECUTING' }) } : { phase: 'final', status: 'SUCCEEDED' },
      ),
    );
    const index = searchIndex(list);
    expect(index.size).toBe(5_000);
    expect(filterTracked(list, index, '', 'in-flight')).toHaveLength(500);
    expect(filterTracked(list, index, hex(4_321), 'all').map((t) => t.intentId)).toEqual([hex(4_321)]);
    expect(filterTracked(list, index, 'usdc', 'all')).toHaveLength(500);
  });
});

describe('searchIndex', () => {
  it('formats a record once: a list read again after a change reuses the text of every record not replaced', () => {
    const kept = intent(1, { status: 'EXECUTING' });
    const before = searchIndex([kept, intent(2)]);
    expect(before.get(hex(1))).toContain('executing');
    // The record object is the key: a list holding the same object again does not format it again (records are
    // replaced, never changed in place, so this stale text shows the cache was used) …
    (kept as { status?: string }).status = 'SUCCEEDED';
    expect(searchIndex([kept]).get(hex(1))).toContain('executing');
    // … while a record that was replaced is formatted anew.
    const replaced = { ...kept };
    expect(searchIndex([replaced]).get(hex(1))).toContain('succeeded');
  });
});
