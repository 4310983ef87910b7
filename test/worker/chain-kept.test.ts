/**
 * What a stored verdict keeps of a leg in a block (lib/worker/chain-kept.ts): a final leg comes back as the same
 * verdict, its transfer compared with what the receipt expects now; anything else is read again.
 */
import { describe, expect, it } from 'vitest';
import type { LegRef } from '@/lib/chain/legs';
import type { LegCheck } from '@/lib/chain/verify';
import { keptCheck, keptOf } from '@/lib/worker/chain-kept';
import { BLOCK, DEST_HASH, DESTINATION, EXPECTED, finalReceived, keptLine } from './chain-fixtures';

const origin: LegRef = { leg: 'origin', chainId: 42161, txnHash: DEST_HASH, serviceMined: true };

describe('a leg kept in a stored verdict', () => {
  it('comes back final with its block, confirmations and transfer', () => {
    const check = finalReceived(24_117_902n, 64);
    expect(keptCheck(keptLine(DESTINATION, check), DESTINATION)).toEqual(check);
    const reverted: LegCheck = { kind: 'reverted', final: true, blockNumber: 7n, blockHash: BLOCK, confirmations: 480 };
    expect(keptCheck(keptLine(origin, reverted), origin)).toEqual(reverted);
  });

  it('compares what arrived with the amount the receipt expects now', () => {
    const check = finalReceived(9n, 60);
    const now = { ...DESTINATION, transfer: { ...EXPECTED, amount: 250_000_000n } };
    expect(keptCheck(keptLine(DESTINATION, check), now)).toMatchObject({ kind: 'final', transfer: { kind: 'less', amount: 249_100_000n } });
  });

  it('is read again when not final, of another transaction or chain, or stored without what it needs', () => {
    const confirmed: LegCheck = { kind: 'confirmed', blockNumber: 9n, blockHash: BLOCK, confirmations: 3 };
    expect(keptCheck(keptLine(origin, confirmed), origin)).toBeUndefined();
    const notFinal: LegCheck = { kind: 'reverted', final: false, blockNumber: 9n, blockHash: BLOCK, confirmations: 3 };
    expect(keptCheck(keptLine(origin, notFinal), origin)).toBeUndefined();
    const final: LegCheck = { kind: 'final', blockNumber: 9n, blockHash: BLOCK, confirmations: 480 };
    const line = keptLine(origin, final);
    expect(keptCheck(line, origin)).toEqual(final);
    expect(keptCheck(line, { ...origin, txnHash: `0x${'e'.repeat(64)}` })).toBeUndefined();
    expect(keptCheck(line, { ...origin, chainId: 8453 })).toBeUndefined();
    // Stored before the block was kept, or a destination without what it moved.
    expect(keptCheck({ leg: 'origin', chainId: 42161, txnHash: DEST_HASH, kind: 'final', text: '' }, origin)).toBeUndefined();
    expect(keptCheck({ ...line, leg: 'destination', chainId: 8453 }, DESTINATION)).toBeUndefined();
    expect(keptCheck({ ...line, blockNumber: 'block nine' }, origin)).toBeUndefined();
    expect(keptCheck({ ...line, blockNumber: undefined }, origin)).toBeUndefined();
    expect(keptCheck(undefined, origin)).toBeUndefined();
  });

  it('keeps the recipient and token the amount reached, and reads again a destination stored without them', () => {
    const check = finalReceived(9n, 60);
    const line = keptLine(DESTINATION, check);
    expect(line).toMatchObject({ received: '249100000', recipient: EXPECTED.to, token: EXPECTED.token });
    // Addresses compared whatever their case (a receipt may name them checksummed).
    const upper = { ...EXPECTED, to: `0x${EXPECTED.to.slice(2).toUpperCase()}`, token: `0x${EXPECTED.token.slice(2).toUpperCase()}` };
    expect(keptCheck(line, { ...DESTINATION, transfer: upper })).toMatchObject({ transfer: { kind: 'received' } });
    const { recipient: _r, ...noRecipient } = line;
    const { token: _t, ...noToken } = line;
    expect(keptCheck(noRecipient, DESTINATION)).toBeUndefined();
    expect(keptCheck(noToken, DESTINATION)).toBeUndefined();
  });

  it('keeps nothing of a leg not in a block', () => {
    expect(keptOf({ kind: 'not-seen' })).toEqual({});
    expect(keptOf({ kind: 'reorged', blockNumber: 3n })).toEqual({});
  });
});
