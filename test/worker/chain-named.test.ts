/** lib/worker/chain-named.ts: the transactions an intent's legs named, each once, taken (and forgotten) on removal. */
import { describe, expect, it } from 'vitest';
import { NamedTransactions } from '@/lib/worker/chain-named';

const hash = (c: string) => `0x${c.repeat(64)}` as const;

describe('NamedTransactions', () => {
  it('keeps every transaction an intent named, each once, a renamed one beside the new one', () => {
    const named = new NamedTransactions();
    named.add('0xa', [{ chainId: 8453, txnHash: hash('1') }]);
    named.add('0xa', [
      { chainId: 8453, txnHash: hash('1') },
      { chainId: 8453, txnHash: hash('2') },
    ]);
    named.add('0xa', [{ chainId: 42161, txnHash: hash('1') }]);
    expect(named.take('0xa')).toEqual([
      { chainId: 8453, txnHash: hash('1') },
      { chainId: 8453, txnHash: hash('2') },
      { chainId: 42161, txnHash: hash('1') },
    ]);
    // Taken: forgotten.
    expect(named.take('0xa')).toEqual([]);
  });

  it('keeps intents apart, and an empty list names nothing', () => {
    const named = new NamedTransactions();
    named.add('0xa', []);
    named.add('0xb', [{ chainId: 1, txnHash: hash('3') }]);
    expect(named.take('0xa')).toEqual([]);
    expect(named.take('0xb')).toEqual([{ chainId: 1, txnHash: hash('3') }]);
  });
});
