import { afterEach, describe, expect, it } from 'vitest';
import type { LegCheck } from '@/lib/chain/verify';
import { disagreementText, legCheckText, transferText, verifiedText } from '@/lib/format/verification';
import { useLocale } from '../i18n/fake-i18n';

const inBlock = { blockNumber: 24_117_902n, blockHash: `0x${'1a'.repeat(32)}` };
const TO = '0x12345678901234567890123456789012345678ab';
const expected = { token: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', to: TO, amount: 249_100_000n };

describe('the words of verification', () => {
  afterEach(() => useLocale('en'));
  it('a leg in a block, final, reverted, not seen, missing, re-orged', () => {
    const check = (c: LegCheck, id = 8453) => legCheckText(c, id);
    expect(check({ kind: 'confirmed', confirmations: 12, ...inBlock })).toBe('Confirmed on Base · block 24,117,902 · 12 confirmations');
    expect(check({ kind: 'confirmed', confirmations: 1, ...inBlock })).toBe('Confirmed on Base · block 24,117,902 · 1 confirmation');
    expect(check({ kind: 'final', confirmations: 64, ...inBlock })).toBe('Final on Base · block 24,117,902 · 64 confirmations');
    expect(check({ kind: 'reverted', final: false, confirmations: 3, ...inBlock }, 42161)).toBe('Reverted on Arbitrum One');
    expect(check({ kind: 'not-seen' })).toBe('Not on Base yet');
    expect(check({ kind: 'missing' })).toBe('Not found on Base, though the service calls it mined');
    expect(check({ kind: 'reorged', blockNumber: 1n })).toBe('Re-orged out of Base: its block is no longer on the chain');
  });
  it('the destination transfer: received, another amount, nothing', () => {
    expect(transferText({ kind: 'received', amount: 249_100_000n, expected }, 'USDC', 6)).toBe('Received 249.10 USDC at 0x1234…78ab');
    expect(transferText({ kind: 'less', amount: 200_000_000n, expected }, 'USDC', 6)).toBe(
      '200.00 USDC arrived at 0x1234…78ab; the receipt says 249.10 USDC',
    );
    expect(transferText({ kind: 'none', amount: 0n, expected }, 'USDC', 6)).toBe(
      'Nothing arrived at 0x1234…78ab; the receipt says 249.10 USDC',
    );
  });
  it('disagreements and the verified mark', () => {
    expect(disagreementText('arrived-early', 8453)).toBe('Arrived on Base — the service has not caught up yet');
    expect(disagreementText('destination-reverted', 42161)).toBe(
      'The service says succeeded, but the transaction reverted on Arbitrum One',
    );
    expect(verifiedText()).toBe('Verified on-chain');
  });
  it('in Spanish, with Spanish grouping', () => {
    useLocale('es');
    expect(legCheckText({ kind: 'confirmed', confirmations: 12, ...inBlock }, 8453)).toBe(
      'Confirmada en Base · bloque 24.117.902 · 12 confirmaciones',
    );
  });
});
