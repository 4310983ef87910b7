import { describe, expect, it } from 'vitest';
import { disagreementKey, disagreementOf, isVerifiedOnChain } from '@/lib/chain/disagreement';
import type { LegCheck } from '@/lib/chain/verify';

const expected = {
  token: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  amount: 249_100_000n,
};
const inBlock = { blockNumber: 7n, confirmations: 2, blockHash: `0x${'1a'.repeat(32)}` };
const confirmed = (kind: 'received' | 'less' | 'more' | 'none' = 'received', amount = 249_100_000n): LegCheck => ({
  kind: 'confirmed',
  ...inBlock,
  transfer: { kind, amount, expected },
});
const final = (kind: 'received' | 'less' = 'received'): LegCheck => ({ ...(confirmed(kind) as object), kind: 'final' }) as LegCheck;
const reverted: LegCheck = { kind: 'reverted', final: false, ...inBlock };

describe('disagreementOf', () => {
  it('the service says SUCCEEDED, the destination reverted', () => {
    expect(disagreementOf('SUCCEEDED', 'destination', reverted, undefined)?.kind).toBe('destination-reverted');
  });
  it('the service says SUCCEEDED, the chain does not know the destination transaction', () => {
    expect(disagreementOf('SUCCEEDED', 'destination', { kind: 'missing' }, { kind: 'not-seen' })?.kind).toBe('destination-missing');
  });
  it('the service says SUCCEEDED, a smaller, larger or no transfer arrived', () => {
    expect(disagreementOf('SUCCEEDED', 'destination', confirmed('less', 200_000_000n), undefined)?.kind).toBe('amount-differs');
    expect(disagreementOf('SUCCEEDED', 'destination', confirmed('more', 300_000_000n), undefined)?.kind).toBe('amount-differs');
    expect(disagreementOf('SUCCEEDED', 'destination', confirmed('none', 0n), undefined)?.kind).toBe('amount-differs');
  });
  it('a leg confirmed earlier is re-orged out (any leg); a re-org of a leg never seen in a block is not news', () => {
    expect(disagreementOf('SUCCEEDED', 'deposit', { kind: 'reorged', blockNumber: 7n }, confirmed())?.kind).toBe('reorged');
    expect(disagreementOf('SUCCEEDED', 'destination', { kind: 'reorged', blockNumber: 7n }, final())?.kind).toBe('reorged');
    expect(disagreementOf('SUCCEEDED', 'destination', { kind: 'reorged', blockNumber: 7n }, undefined)).toBeUndefined();
  });
  it('the good kind: the transfer arrived while the service still says EXECUTING', () => {
    expect(disagreementOf('EXECUTING', 'destination', confirmed(), { kind: 'not-seen' })?.kind).toBe('arrived-early');
    expect(disagreementOf('EXECUTING', 'destination', confirmed('less'), undefined)).toBeUndefined();
  });
  it('agreement says nothing: SUCCEEDED and received; a pending service and a transaction not seen yet; a reverted origin leg', () => {
    expect(disagreementOf('SUCCEEDED', 'destination', final(), confirmed())).toBeUndefined();
    expect(disagreementOf('EXECUTING', 'destination', { kind: 'not-seen' }, undefined)).toBeUndefined();
    expect(disagreementOf('FAILED', 'origin', reverted, undefined)).toBeUndefined();
    expect(disagreementOf('EXECUTING', 'destination', reverted, undefined)).toBeUndefined();
  });
  it('each disagreement has one key per intent, kind and leg', () => {
    expect(disagreementKey('0xabc', { kind: 'reorged', leg: 'deposit' })).not.toBe(
      disagreementKey('0xabc', { kind: 'reorged', leg: 'destination' }),
    );
    expect(disagreementKey('0xabc', { kind: 'reorged', leg: 'deposit' })).toBe(
      disagreementKey('0xabc', { kind: 'reorged', leg: 'deposit' }),
    );
  });
});

describe('isVerifiedOnChain', () => {
  it('only a SUCCEEDED intent whose destination is final with the exact transfer', () => {
    expect(isVerifiedOnChain('SUCCEEDED', final())).toBe(true);
    expect(isVerifiedOnChain('SUCCEEDED', confirmed())).toBe(false);
    expect(isVerifiedOnChain('SUCCEEDED', final('less'))).toBe(false);
    expect(isVerifiedOnChain('EXECUTING', final())).toBe(false);
    expect(isVerifiedOnChain('SUCCEEDED', undefined)).toBe(false);
  });
});
