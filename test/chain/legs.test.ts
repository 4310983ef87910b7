import { describe, expect, it } from 'vitest';
import { IntentReceipt } from '@/lib/api/schemas/receipt';
import { verifiableLegs } from '@/lib/chain/legs';

const hash = (c: string) => `0x${c.repeat(64)}`;
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const TOKEN = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';

describe('verifiableLegs', () => {
  const receipt = IntentReceipt.parse({
    intentId: 'i',
    status: 'SUCCEEDED',
    depositTransaction: { chainId: 42161, txnHash: hash('A'), status: 'SUCCEEDED' },
    originTransaction: { chainId: 42161, txnHash: `0x${'b'.repeat(54)}${'0'.repeat(10)}`, status: 'SUCCEEDED' },
    destinationTransaction: {
      chainId: 8453,
      txnHash: hash('c'),
      status: 'PENDING',
      txnMinedAt: '2026-11-26T10:00:00Z',
      tokenAmount: '249100000',
    },
    refundTransaction: { chainId: 8453, txnHash: 'not a hash' },
    summary: { destinationToAddress: TO, destinationTokenAddress: TOKEN, destinationTokenAmount: '250000000' },
  });
  it('keeps legs with a chain and a real hash (no placeholder, no malformed hash), hashes in lower case', () => {
    expect(verifiableLegs(receipt).map((r) => [r.leg, r.chainId, r.txnHash])).toEqual([
      ['deposit', 42161, hash('a')],
      ['destination', 8453, hash('c')],
    ]);
  });
  it('the service calls a leg mined by its txnMinedAt or its SUCCEEDED status', () => {
    expect(verifiableLegs(receipt).map((r) => r.serviceMined)).toEqual([true, true]);
  });
  it('the destination leg expects its own tokenAmount of the destination token at destinationToAddress', () => {
    expect(verifiableLegs(receipt)[1]!.transfer).toEqual({ to: TO, token: TOKEN, amount: 249_100_000n });
    expect(verifiableLegs(receipt)[0]!.transfer).toBeUndefined();
  });
  it('no transfer expectation when the receipt lacks the recipient', () => {
    const bare = IntentReceipt.parse({ ...receipt, summary: { destinationTokenAddress: TOKEN } });
    expect(verifiableLegs(bare)[1]!.transfer).toBeUndefined();
  });
});
