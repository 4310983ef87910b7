import { describe, expect, it } from 'vitest';
import { intentIdOfNotification } from '@/lib/notify/browser';
import { notificationContent } from '@/lib/notify/content';
import type { TrackedIntent } from '@/lib/store';

const ID = `0x${'ab'.repeat(32)}`;
const base: TrackedIntent = { intentId: ID, addedAt: 0, lastStates: [], phase: 'final', notification: 'pending' };

describe('notificationContent', () => {
  it('says success with route, amount and symbol in display units', () => {
    const c = notificationContent({
      ...base,
      status: 'SUCCEEDED',
      receipt: {
        intentId: ID,
        status: 'SUCCEEDED',
        originChainId: 42161,
        destinationChainId: 8453,
        summary: {
          originTokenAmount: '250000000',
          originTokenMetadata: { symbol: 'USDC', decimals: 6 },
          destinationTokenAmount: '249100000',
          destinationTokenMetadata: { symbol: 'USDC', decimals: 6 },
        },
      },
    });
    expect(c.title).toBe('Intent succeeded · 0xabab…abab');
    expect(c.message).toBe('Arbitrum One → Base: 250.00 USDC → 249.10 USDC');
  });

  it('gives the statusReason of a failed intent', () => {
    const c = notificationContent({
      ...base,
      status: 'FAILED',
      receipt: {
        intentId: ID,
        status: 'FAILED',
        originChainId: 42161,
        destinationChainId: 10,
        originTransaction: { status: 'FAILED', statusReason: 'execution reverted: slippage' },
        summary: { originTokenAmount: '1500000000000000000', originTokenMetadata: { symbol: 'ETH', decimals: 18 } },
      },
    });
    expect(c.title).toBe('Intent failed · 0xabab…abab');
    expect(c.message).toBe('Arbitrum One → Optimism: 1.50 ETH\nReason: execution reverted: slippage');
  });
});

describe('notification ids', () => {
  it('trace back to their intent', () => {
    expect(intentIdOfNotification(`svc-intent:${ID}:1700000000000`)).toBe(ID);
    expect(intentIdOfNotification('other:123')).toBeUndefined();
  });
});
