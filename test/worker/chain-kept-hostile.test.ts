/**
 * Hostile tests of a leg kept final in a stored verdict (lib/worker/chain-kept.ts): a receipt that, for the same
 * transaction, later names another recipient or token than the one the kept amount reached. Written by a tester who
 * did not write the code.
 */
import { describe, expect, it } from 'vitest';
import type { LegRef } from '@/lib/chain/legs';
import type { LegCheck } from '@/lib/chain/verify';
import type { ChainVerdictLeg } from '@/lib/store';
import { keptCheck, keptOf } from '@/lib/worker/chain-kept';

const HASH = `0x${'d'.repeat(64)}` as const;
const BLOCK = `0x${'1a'.repeat(32)}`;
const expected = {
  token: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  amount: 249_100_000n,
};
const destination: LegRef = { leg: 'destination', chainId: 8453, txnHash: HASH, serviceMined: true, transfer: expected };
const final: LegCheck = {
  kind: 'final',
  blockNumber: 24_117_902n,
  blockHash: BLOCK,
  confirmations: 64,
  transfer: { kind: 'received', amount: 249_100_000n, expected },
};
const line: ChainVerdictLeg = {
  leg: 'destination',
  chainId: 8453,
  txnHash: HASH,
  kind: 'final',
  text: '',
  ...JSON.parse(JSON.stringify(keptOf(final))),
};

describe('a destination kept final, the receipt naming another recipient or token for the same transaction', () => {
  // Defect (kept as it.fails): the kept line stores only the amount that reached the recipient, not which recipient
  // or token; keptCheck compares that amount with the receipt's *new* recipient and token, so a service that later names
  // another recipient (or token) for the same transaction gets "received … verified on-chain" for an address the
  // chain never paid. The leg should be read again (undefined) when the recipient or token differ.
  it('another recipient: the kept amount is not taken as received by it', () => {
    const other = { ...destination, transfer: { ...expected, to: `0x${'12'.repeat(20)}` } };
    expect(keptCheck(line, other)).toBeUndefined();
  });

  it('another token: the kept amount is not taken as received in it', () => {
    const other = { ...destination, transfer: { ...expected, token: `0x${'34'.repeat(20)}` } };
    expect(keptCheck(line, other)).toBeUndefined();
  });

  it('the same recipient and token: kept (control)', () => {
    expect(keptCheck(line, destination)).toMatchObject({ kind: 'final', transfer: { kind: 'received' } });
  });
});
