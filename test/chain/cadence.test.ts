import { describe, expect, it } from 'vitest';
import { nextCheckDelay, retryDelay } from '@/lib/chain/cadence';

const inBlock = { blockNumber: 1n, blockHash: `0x${'1a'.repeat(32)}` };

describe('nextCheckDelay', () => {
  it('never again once settled', () => {
    expect(nextCheckDelay({ kind: 'final', confirmations: 64, ...inBlock }, 12_000, 64)).toBeUndefined();
    expect(nextCheckDelay({ kind: 'reverted', final: true, confirmations: 64, ...inBlock }, 12_000, 64)).toBeUndefined();
  });
  it('when the missing confirmations should be complete (and half a block), within 4 s and 60 s', () => {
    // Base: 2 s blocks, 60 deep, 40 confirmations: 20.5 blocks × 2 s = 41 s.
    expect(nextCheckDelay({ kind: 'confirmed', confirmations: 40, ...inBlock }, 2_000, 60)).toBe(41_000);
    // Base, 55 confirmations: 5.5 × 2 s = 11 s.
    expect(nextCheckDelay({ kind: 'confirmed', confirmations: 55, ...inBlock }, 2_000, 60)).toBe(11_000);
    // Ethereum: 63.5 blocks × 12 s = 762 s, capped at 60 s.
    expect(nextCheckDelay({ kind: 'confirmed', confirmations: 1, ...inBlock }, 12_000, 64)).toBe(60_000);
    // Arbitrum One: 1.5 blocks × 250 ms, raised to 4 s.
    expect(nextCheckDelay({ kind: 'confirmed', confirmations: 479, ...inBlock }, 250, 480)).toBe(4_000);
  });
  it('reads a Base leg about four times from its first confirmation to final, on time', () => {
    // A chain that keeps its block time exactly: each check reads the confirmations the elapsed time made.
    const blockTimeMs = 2_000;
    const depth = 60;
    let at = 0;
    let reads = 0;
    for (;;) {
      reads += 1;
      const confirmations = 1 + Math.floor(at / blockTimeMs);
      const check =
        confirmations >= depth
          ? ({ kind: 'final', confirmations, ...inBlock } as const)
          : ({ kind: 'confirmed', confirmations, ...inBlock } as const);
      const delay = nextCheckDelay(check, blockTimeMs, depth);
      if (delay === undefined) break;
      at += delay;
    }
    // 59 confirmations missing take 118 s: read at 0 s, 60 s (the bound), then when the 29 left are done (119 s).
    expect(reads).toBe(3);
    expect(at).toBe(119_000);
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
