/**
 * Hostile tests of a leg kept final in a stored verdict (lib/worker/chain-kept.ts): a receipt that, for the same
 * transaction, later names another recipient or token than the one the kept amount reached. Written by a tester who
 * did not write the code.
 */
import { describe, expect, it } from 'vitest';
import { keptCheck } from '@/lib/worker/chain-kept';
import { DESTINATION, EXPECTED, finalReceived, keptLine } from './chain-fixtures';

const line = keptLine(DESTINATION, finalReceived(24_117_902n, 64));

describe('a destination kept final, the receipt naming another recipient or token for the same transaction', () => {
  // Defect (kept as it.fails): the kept line stores only the amount that reached the recipient, not which recipient
  // or token; keptCheck compares that amount with the receipt's *new* recipient and token, so a service that later names
  // another recipient (or token) for the same transaction gets "received … verified on-chain" for an address the
  // chain never paid. The leg should be read again (undefined) when the recipient or token differ.
  it('another recipient: the kept amount is not taken as received by it', () => {
    const other = { ...DESTINATION, transfer: { ...EXPECTED, to: `0x${'12'.repeat(20)}` } };
    expect(keptCheck(line, other)).toBeUndefined();
  });

  it('another token: the kept amount is not taken as received in it', () => {
    const other = { ...DESTINATION, transfer: { ...EXPECTED, token: `0x${'34'.repeat(20)}` } };
    expect(keptCheck(line, other)).toBeUndefined();
  });

  it('the same recipient and token: kept (control)', () => {
    expect(keptCheck(line, DESTINATION)).toMatchObject({ kind: 'final', transfer: { kind: 'received' } });
  });
});
