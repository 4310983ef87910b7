import { describe, expect, it } from 'vitest';
import { RpcBudget } from '@/lib/chain/budget';

describe('RpcBudget', () => {
  it('takes whole checks per origin, and says how long until a check’s requests are back', () => {
    let now = 0;
    const budget = new RpcBudget({ monotonic: () => now, perMinute: 30, burst: 8 });
    expect(budget.take('http://127.0.0.1:1', 3)).toBe(true);
    expect(budget.take('http://127.0.0.1:1', 3)).toBe(true);
    expect(budget.waitMs('http://127.0.0.1:1', 3)).toBe(2_000); // 2 left, 1 more at 30 a minute
    expect(budget.take('http://127.0.0.1:1', 3)).toBe(false);
    // Another port is another origin, with its own bucket.
    expect(budget.waitMs('http://127.0.0.1:2', 3)).toBe(0);
    now += 2_000;
    expect(budget.waitMs('http://127.0.0.1:1', 3)).toBe(0);
    expect(budget.take('http://127.0.0.1:1', 3)).toBe(true);
    // More than the burst never fits.
    expect(budget.waitMs('http://127.0.0.1:1', 9)).toBe(Number.POSITIVE_INFINITY);
    expect(budget.sent.get('http://127.0.0.1:1')).toBe(9);
  });
});
