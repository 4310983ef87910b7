import { describe, expect, it } from 'vitest';
import { intentIdOfNotification } from '@/lib/notify/browser';
import {
  groupContent,
  groupContentOf,
  groupLine,
  notificationContent,
  outcomeExplorerUrl,
  pendingLeg,
  stuckContent,
} from '@/lib/notify/content';
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

const TX = (c: string) => `0x${c.repeat(64)}`;
const route = { originChainId: 42161, destinationChainId: 8453 };

describe('notificationContent, the edges', () => {
  it('without a receipt says to open the tracker, under the outcome', () => {
    expect(notificationContent({ ...base, status: 'REFUNDED' })).toEqual({
      title: 'Intent refunded · 0xabab…abab',
      message: 'Open the tracker for details.',
    });
  });

  it('one amount when the destination amount is the origin amount, or unknown', () => {
    const same = { originTokenAmount: '5000000', originTokenMetadata: { symbol: 'USDC', decimals: 6 } };
    const receipt = { intentId: ID, status: 'SUCCEEDED', ...route };
    expect(
      notificationContent({
        ...base,
        status: 'SUCCEEDED',
        receipt: {
          ...receipt,
          summary: { ...same, destinationTokenAmount: '5000000', destinationTokenMetadata: { symbol: 'USDC', decimals: 6 } },
        },
      }).message,
    ).toBe('Arbitrum One → Base: 5.00 USDC');
    expect(notificationContent({ ...base, status: 'SUCCEEDED', receipt: { ...receipt, summary: same } }).message).toBe(
      'Arbitrum One → Base: 5.00 USDC',
    );
  });

  it('a failed intent whose reason the service did not give says so; other outcomes carry no reason line', () => {
    const receipt = {
      intentId: ID,
      status: 'FAILED',
      ...route,
      summary: { originTokenAmount: '5000000', originTokenMetadata: { symbol: 'USDC', decimals: 6 } },
    };
    expect(notificationContent({ ...base, status: 'FAILED', receipt }).message).toBe(
      'Arbitrum One → Base: 5.00 USDC\nReason: not given by the service',
    );
    expect(notificationContent({ ...base, status: 'ABORTED', receipt: { ...receipt, status: 'ABORTED' } })).toEqual({
      title: 'Intent aborted · 0xabab…abab',
      message: 'Arbitrum One → Base: 5.00 USDC',
    });
  });
});

describe('grouped notifications', () => {
  const ids = [1, 2, 3, 4, 5].map((n) => `0x${String(n).repeat(64)}`);
  const intent = (n: number, status: string, withReceipt = true): TrackedIntent => ({
    ...base,
    intentId: ids[n]!,
    status,
    ...(withReceipt ? { receipt: { intentId: ids[n]!, status, ...route } } : {}),
  });

  it('a line per intent: short id and route, or its outcome when no receipt is known', () => {
    expect(groupLine(intent(0, 'SUCCEEDED'))).toBe('0x1111…1111: Arbitrum One → Base');
    expect(groupLine(intent(1, 'FAILED', false))).toBe('0x2222…2222: Failed');
  });

  it('counts each outcome in the order first met, lists three lines and says how many more', () => {
    const c = groupContent([
      intent(0, 'SUCCEEDED'),
      intent(1, 'FAILED'),
      intent(2, 'SUCCEEDED'),
      intent(3, 'REFUNDED'),
      intent(4, 'SUCCEEDED', false),
    ]);
    expect(c.title).toBe('5 intents finished: 3 succeeded, 1 failed, 1 refunded');
    expect(c.message).toBe(
      ['0x1111…1111: Arbitrum One → Base', '0x2222…2222: Arbitrum One → Base', '0x3333…3333: Arbitrum One → Base', '…and 2 more'].join(
        '\n',
      ),
    );
  });

  it('three or fewer: every line, nothing more', () => {
    const c = groupContentOf([
      { status: 'SUCCEEDED', line: 'a' },
      { status: 'SUCCEEDED', line: 'b' },
      { status: 'ABORTED', line: 'c' },
    ]);
    expect(c).toEqual({ title: '3 intents finished: 2 succeeded, 1 aborted', message: 'a\nb\nc' });
    expect(
      groupContentOf([
        { status: 'FAILED', line: 'x' },
        { status: 'FAILED', line: 'y' },
      ]),
    ).toEqual({
      title: '2 intents finished: 2 failed',
      message: 'x\ny',
    });
  });
});

describe('"taking longer than expected"', () => {
  const executing = (legs: Partial<Record<'depositTransaction' | 'originTransaction' | 'destinationTransaction', { status: string }>>) => ({
    ...base,
    phase: 'tracking' as const,
    status: 'EXECUTING',
    receipt: {
      intentId: ID,
      status: 'EXECUTING',
      ...route,
      summary: { originTokenAmount: '250000000', originTokenMetadata: { symbol: 'USDC', decimals: 6 } },
      ...legs,
    },
  });

  it('names the first leg that has not succeeded, with its state', () => {
    const i = executing({ depositTransaction: { status: 'SUCCEEDED' }, originTransaction: { status: 'PENDING' } });
    expect(pendingLeg(i)).toEqual({ kind: 'origin', status: 'PENDING' });
    expect(stuckContent(i, 20)).toEqual({
      title: 'Taking longer than expected · 0xabab…abab',
      message: 'Arbitrum One → Base: 250.00 USDC\nExecuting for over 20 min. Waiting on the origin leg (PENDING).',
    });
  });

  it('a leg not in the receipt yet is "not started"; a leg without a state is UNKNOWN', () => {
    const missing = executing({ depositTransaction: { status: 'SUCCEEDED' }, originTransaction: { status: 'SUCCEEDED' } });
    expect(pendingLeg(missing)).toEqual({ kind: 'destination', status: 'not started' });
    expect(stuckContent(missing, 15).message).toBe(
      'Arbitrum One → Base: 250.00 USDC\nExecuting for over 15 min. Waiting on the destination leg (not started).',
    );
    expect(pendingLeg(executing({ depositTransaction: {} as { status: string } }))).toEqual({ kind: 'deposit', status: 'UNKNOWN' });
  });

  it('every leg done: still executing; no receipt: only the time', () => {
    const done = executing({
      depositTransaction: { status: 'SUCCEEDED' },
      originTransaction: { status: 'SUCCEEDED' },
      destinationTransaction: { status: 'SUCCEEDED' },
    });
    expect(pendingLeg(done)).toBeUndefined();
    expect(stuckContent(done, 30).message).toBe('Arbitrum One → Base: 250.00 USDC\nExecuting for over 30 min. Still executing.');
    expect(pendingLeg({ ...base, status: 'EXECUTING' })).toBeUndefined();
    expect(stuckContent({ ...base, status: 'EXECUTING' }, 16)).toEqual({
      title: 'Taking longer than expected · 0xabab…abab',
      message: 'Executing for over 16 min. Still executing.',
    });
  });
});

describe('the explorer link of an outcome', () => {
  const leg = (chainId: number, c: string, status: string) => ({ chainId, txnHash: TX(c), status });
  const final = (status: string, legs: Record<string, unknown>): TrackedIntent => ({
    ...base,
    status,
    receipt: { intentId: ID, status, ...route, ...legs } as TrackedIntent['receipt'],
  });

  it('succeeded: the destination transaction, else the origin one', () => {
    const both = { originTransaction: leg(42161, 'a', 'SUCCEEDED'), destinationTransaction: leg(8453, 'b', 'SUCCEEDED') };
    expect(outcomeExplorerUrl(final('SUCCEEDED', both))).toBe(`https://basescan.org/tx/${TX('b')}`);
    expect(outcomeExplorerUrl(final('SUCCEEDED', { originTransaction: leg(42161, 'a', 'SUCCEEDED') }))).toBe(
      `https://arbiscan.io/tx/${TX('a')}`,
    );
  });

  it('refunded: the refund transaction only', () => {
    expect(
      outcomeExplorerUrl(
        final('REFUNDED', { originTransaction: leg(42161, 'a', 'SUCCEEDED'), refundTransaction: leg(42161, 'c', 'SUCCEEDED') }),
      ),
    ).toBe(`https://arbiscan.io/tx/${TX('c')}`);
    expect(outcomeExplorerUrl(final('REFUNDED', { originTransaction: leg(42161, 'a', 'SUCCEEDED') }))).toBeUndefined();
  });

  it('failed: the first leg that did not succeed, in the order origin, destination, deposit, refund', () => {
    const legs = {
      depositTransaction: leg(42161, 'd', 'FAILED'),
      originTransaction: leg(42161, 'a', 'SUCCEEDED'),
      destinationTransaction: leg(8453, 'b', 'FAILED'),
    };
    expect(outcomeExplorerUrl(final('FAILED', legs))).toBe(`https://basescan.org/tx/${TX('b')}`);
    expect(outcomeExplorerUrl(final('FAILED', { ...legs, destinationTransaction: leg(8453, 'b', 'SUCCEEDED') }))).toBe(
      `https://arbiscan.io/tx/${TX('d')}`,
    );
  });

  it('nothing for a chain without a known explorer, a placeholder hash, or no receipt', () => {
    expect(outcomeExplorerUrl(final('SUCCEEDED', { destinationTransaction: leg(999999, 'b', 'SUCCEEDED') }))).toBeUndefined();
    expect(
      outcomeExplorerUrl(
        final('SUCCEEDED', { destinationTransaction: { chainId: 8453, txnHash: `0x${'0'.repeat(64)}`, status: 'SUCCEEDED' } }),
      ),
    ).toBeUndefined();
    expect(outcomeExplorerUrl({ ...base, status: 'SUCCEEDED' })).toBeUndefined();
  });
});
