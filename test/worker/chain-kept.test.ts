/**
 * What a stored verdict keeps of a leg in a block (lib/worker/chain-kept.ts): a final leg comes back as the same
 * verdict, its transfer compared with what the receipt expects now; anything else is read again.
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
const origin: LegRef = { leg: 'origin', chainId: 42161, txnHash: HASH, serviceMined: true };
const lineOf = (ref: LegRef, check: LegCheck): ChainVerdictLeg => ({
  leg: ref.leg,
  chainId: ref.chainId,
  txnHash: ref.txnHash,
  kind: check.kind,
  text: '',
  // Through JSON, as storage.local keeps it.
  ...JSON.parse(JSON.stringify(keptOf(check))),
});

describe('a leg kept in a stored verdict', () => {
  it('comes back final with its block, confirmations and transfer', () => {
    const check: LegCheck = {
      kind: 'final',
      blockNumber: 24_117_902n,
      blockHash: BLOCK,
      confirmations: 64,
      transfer: { kind: 'received', amount: 249_100_000n, expected },
    };
    expect(keptCheck(lineOf(destination, check), destination)).toEqual(check);
    const reverted: LegCheck = { kind: 'reverted', final: true, blockNumber: 7n, blockHash: BLOCK, confirmations: 480 };
    expect(keptCheck(lineOf(origin, reverted), origin)).toEqual(reverted);
  });

  it('compares what arrived with the amount the receipt expects now', () => {
    const check: LegCheck = {
      kind: 'final',
      blockNumber: 9n,
      blockHash: BLOCK,
      confirmations: 60,
      transfer: { kind: 'received', amount: 249_100_000n, expected },
    };
    const now = { ...destination, transfer: { ...expected, amount: 250_000_000n } };
    expect(keptCheck(lineOf(destination, check), now)).toMatchObject({ kind: 'final', transfer: { kind: 'less', amount: 249_100_000n } });
  });

  it('is read again when not final, of another transaction or chain, or stored without what it needs', () => {
    const confirmed: LegCheck = { kind: 'confirmed', blockNumber: 9n, blockHash: BLOCK, confirmations: 3 };
    expect(keptCheck(lineOf(origin, confirmed), origin)).toBeUndefined();
    const notFinal: LegCheck = { kind: 'reverted', final: false, blockNumber: 9n, blockHash: BLOCK, confirmations: 3 };
    expect(keptCheck(lineOf(origin, notFinal), origin)).toBeUndefined();
    const final: LegCheck = { kind: 'final', blockNumber: 9n, blockHash: BLOCK, confirmations: 480 };
    const line = lineOf(origin, final);
    expect(keptCheck(line, origin)).toEqual(final);
    expect(keptCheck(line, { ...origin, txnHash: `0x${'e'.repeat(64)}` })).toBeUndefined();
    expect(keptCheck(line, { ...origin, chainId: 8453 })).toBeUndefined();
    // Stored before the block was kept, or a destination without what it moved.
    expect(keptCheck({ leg: 'origin', chainId: 42161, txnHash: HASH, kind: 'final', text: '' }, origin)).toBeUndefined();
    expect(keptCheck({ ...line, leg: 'destination', chainId: 8453 }, destination)).toBeUndefined();
    expect(keptCheck({ ...line, blockNumber: 'block nine' }, origin)).toBeUndefined();
    expect(keptCheck({ ...line, blockNumber: undefined }, origin)).toBeUndefined();
    expect(keptCheck(undefined, origin)).toBeUndefined();
  });

  it('keeps the recipient and token the amount reached, and reads again a destination stored without them', () => {
    const check: LegCheck = {
      kind: 'final',
      blockNumber: 9n,
      blockHash: BLOCK,
      confirmations: 60,
      transfer: { kind: 'received', amount: 249_100_000n, expected },
    };
    const line = lineOf(destination, check);
    expect(line).toMatchObject({ received: '249100000', recipient: expected.to, token: expected.token });
    // Addresses compared whatever their case (a receipt may name them checksummed).
    const upper = { ...expected, to: `0x${expected.to.slice(2).toUpperCase()}`, token: `0x${expected.token.slice(2).toUpperCase()}` };
    expect(keptCheck(line, { ...destination, transfer: upper })).toMatchObject({ transfer: { kind: 'received' } });
    const { recipient: _r, ...noRecipient } = line;
    const { token: _t, ...noToken } = line;
    expect(keptCheck(noRecipient, destination)).toBeUndefined();
    expect(keptCheck(noToken, destination)).toBeUndefined();
  });

  it('keeps nothing of a leg not in a block', () => {
    expect(keptOf({ kind: 'not-seen' })).toEqual({});
    expect(keptOf({ kind: 'reorged', blockNumber: 3n })).toEqual({});
  });
});
