import { describe, expect, it } from 'vitest';
import { nextCheckDelay, retryDelay } from '@/lib/chain/cadence';

const inBlock = { blockNumber: 1n, blockHash: `0x${'1a'.repeat(32)}` };

describe('nextCheckDelay', () => {
  it('never again once settled', () => {
    expect(nextCheckDelay({ kind: 'final', confirmations: 64, ...inBlock }, 12_000, 64)).toBeUndefined();
    expect(nextCheckDelay({ kind: 'reverted', final: true, confirmations: 64, ...inBlock }, 12_000, 64)).toBeUndefined();
  });
  it('a quarter of the missing confirmations’ time, within 4 s and 60 s', () => {
    // Base: 2 s blocks, 60 deep, 40 confirmations: 20 blocks × 2 s / 4 = 10 s.
    expect(nextCheckDelay({ kind: 'confirmed', confirmations: 40, ...inBlock }, 2_000, 60)).toBe(10_000);
    // Ethereum: 63 blocks × 12 s / 4 = 189 s, capped at 60 s.
    expect(nextCheckDelay({ kind: 'confirmed', confirmations: 1, ...inBlock }, 12_000, 64)).toBe(60_000);
    // Arbitrum One: 1 block × 250 ms / 4, raised to 4 s.
    expect(nextCheckDelay({ kind: 'confirmed', confirmations: 479, ...inBlock }, 250, 480)).toBe(4_000);
  });
  it('not seen, missing and re-orged legs are checked again on a fixed pace', () => {
    expect(nextCheckDelay({ kind: 'not-seen' }, 2_000, 60)).toBe(12_000);
    expect(nextCheckDelay({ kind: 'missing' }, 2_000, 60)).toBe(30_000);
    expect(nextCheckDelay({ kind: 'reorged', blockNumber: 1n }, 2_000, 60)).toBe(30_000);
  });
  it('a leg without a verdict is asked again when its budget or a failure allows, within 4 s and 60 s', () => {
    expect(retryDelay(6_000)).toBe(6_000);
    expect(retryDelay(0)).toBe(4_000);
    expect(retryDelay(Number.POSITIVE_INFINITY)).toBe(60_000);
    expect(retryDelay(undefined)).toBeUndefined();
  });
});
