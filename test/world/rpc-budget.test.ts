/** The V1 oracle's replay of the stated RPC budget (test/world/rpc-budget.ts), on hand-made requests. */
import { describe, expect, it } from 'vitest';
import { budgetOwedAt } from './rpc-budget';

const S = 1_000;

describe('budgetOwedAt', () => {
  it('an idle origin: 4 s after the leg was named (the shortest wait of a skipped leg)', () => {
    expect(budgetOwedAt([], [0], 100 * S)).toBe(104 * S);
  });

  it('the burst spent at the naming (8 requests): when 4 tokens are back, 8 s later at 30 a minute', () => {
    const burst = Array.from({ length: 8 }, () => 100 * S);
    expect(budgetOwedAt(burst, [0], 100 * S)).toBe(108 * S);
  });

  it('half the burst spent: 4 tokens left, owed at the 4 s floor', () => {
    expect(budgetOwedAt([100 * S, 100 * S, 100 * S, 100 * S], [0], 100 * S)).toBe(104 * S);
  });

  it('requests going on take what refills: owed only when 4 are held after the requests of an instant', () => {
    // 8 at the naming, then one every 2 s (what refills): the bucket never holds 4 until they stop at 120 s.
    const reqs = [...Array.from({ length: 8 }, () => 100 * S), ...Array.from({ length: 10 }, (_, k) => 102 * S + k * 2 * S)];
    expect(budgetOwedAt(reqs, [0], 100 * S)).toBe(128 * S);
  });

  it('a new worker life starts with a full budget', () => {
    const burst = Array.from({ length: 8 }, () => 100 * S);
    expect(budgetOwedAt(burst, [0, 105 * S], 100 * S)).toBe(105 * S);
  });

  it('another check takes the 4 tokens the instant they are back: that check goes first, this leg waits the next 4', () => {
    // Two legs wait for the same refill (seed 20261208 run 45044): at 108 s the other one's check takes the 4 tokens.
    const reqs = [...Array.from({ length: 8 }, () => 100 * S), ...Array.from({ length: 4 }, () => 108 * S)];
    expect(budgetOwedAt(reqs, [0], 100 * S)).toBe(116 * S);
  });

  it('another check at the very instant of the 4 s floor also goes first', () => {
    const reqs = Array.from({ length: 8 }, () => 104 * S);
    expect(budgetOwedAt(reqs, [0], 100 * S)).toBe(112 * S);
  });
});
