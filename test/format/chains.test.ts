import { describe, expect, it } from 'vitest';
import { chainName, explorerTxUrl, isPlaceholderHash } from '@/lib/format/chains';

const hash = `0x${'ab'.repeat(32)}`;

describe('explorer links', () => {
  it('links a real hash on a known chain to its explorer', () => {
    expect(explorerTxUrl(8453, hash)).toBe(`https://basescan.org/tx/${hash}`);
    expect(explorerTxUrl(42161, hash)).toBe(`https://arbiscan.io/tx/${hash}`);
  });
  it('gives no link for an unknown chain, a placeholder or a malformed hash', () => {
    expect(explorerTxUrl(999999, hash)).toBeUndefined();
    const placeholder = `0x${'ab'.repeat(27)}${'0'.repeat(10)}`;
    expect(isPlaceholderHash(placeholder)).toBe(true);
    expect(explorerTxUrl(1, placeholder)).toBeUndefined();
    expect(explorerTxUrl(1, 'javascript:alert(1)')).toBeUndefined();
    expect(explorerTxUrl(1, `${hash}00`)).toBeUndefined();
  });
  it('names chains', () => {
    expect(chainName(42161)).toBe('Arbitrum One');
    expect(chainName(31337)).toBe('Chain 31337');
    expect(chainName(undefined)).toBe('Unknown chain');
  });
});
