import { describe, expect, it } from 'vitest';
import { historyRequest, timeWindow } from '@/lib/query/history-filters';
import { mergeById, searchRequests } from '@/lib/query/search';

const NOW = Date.UTC(2026, 10, 21, 15, 30, 0);

describe('historyRequest', () => {
  it('sends one status as byStatus and several as byStatuses', () => {
    expect(historyRequest({ statuses: ['FAILED'], range: 'any' }, NOW)).toMatchObject({ byStatus: 'FAILED' });
    const two = historyRequest({ statuses: ['FAILED', 'REFUNDED'], range: 'any' }, NOW);
    expect(two.byStatuses).toEqual(['FAILED', 'REFUNDED']);
    expect(two.byStatus).toBeUndefined();
  });
  it('maps chains, token and owner', () => {
    expect(
      historyRequest(
        { statuses: [], range: 'any', originChainId: 1, destinationChainId: 10, tokenAddress: '0xt', ownerAddress: '0xo' },
        NOW,
      ),
    ).toMatchObject({
      originChainId: 1,
      destinationChainId: 10,
      originTokenAddress: '0xt',
      byOwnerAddress: '0xo',
    });
  });
  it('turns time ranges into Unix seconds', () => {
    expect(timeWindow({ statuses: [], range: '7d' }, NOW)).toEqual({ fromTime: NOW / 1000 - 7 * 86_400 });
    expect(timeWindow({ statuses: [], range: '30d' }, NOW)).toEqual({ fromTime: NOW / 1000 - 30 * 86_400 });
    const today = timeWindow({ statuses: [], range: 'today' }, NOW).fromTime!;
    expect(new Date(today * 1000).getHours()).toBe(0);
    expect(today).toBeLessThanOrEqual(NOW / 1000);
    const custom = timeWindow({ statuses: [], range: 'custom', from: '2026-11-01', to: '2026-11-02' }, NOW);
    expect(custom.toTime! - custom.fromTime!).toBe(2 * 86_400 - 1);
    expect(timeWindow({ statuses: [], range: 'custom', from: 'nonsense' }, NOW)).toEqual({});
  });
});

describe('searchRequests', () => {
  it('understands a hash, an address and free text', () => {
    const h = `0x${'A'.repeat(64)}`;
    expect(searchRequests(h)).toEqual({
      kind: 'hash',
      requests: [{ byIntentId: h.toLowerCase() }, { byTransactionHash: h.toLowerCase() }],
    });
    const a = `0x${'b'.repeat(40)}`;
    expect(searchRequests(` ${a} `)?.requests).toEqual([
      { byOwnerAddress: a },
      { byOriginIntentAddress: a },
      { byDestinationIntentAddress: a },
    ]);
    expect(searchRequests('relay')).toEqual({ kind: 'text', requests: [{ byQueryString: 'relay' }] });
    expect(searchRequests('   ')).toBeUndefined();
  });
  it('merges results once each, newest first', () => {
    expect(
      mergeById([
        [{ intentId: 'a', id: 1 }],
        [
          { intentId: 'b', id: 3 },
          { intentId: 'a', id: 1 },
        ],
      ]).map((x) => x.intentId),
    ).toEqual(['b', 'a']);
  });
});
