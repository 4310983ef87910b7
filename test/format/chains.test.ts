import { afterEach, describe, expect, it } from 'vitest';
import { chainName, explorerTxUrl, isPlaceholderHash } from '@/lib/format/chains';
import { useLocale } from '../i18n/fake-i18n';

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
  describe('in the browser’s language', () => {
    afterEach(() => useLocale('en'));
    it('names an unknown chain in Spanish and Chinese, and keeps proper names', () => {
      useLocale('es');
      expect([chainName(31337), chainName(null), chainName(42161)]).toEqual(['Cadena 31337', 'Cadena desconocida', 'Arbitrum One']);
      useLocale('zh_CN');
      expect([chainName(31337), chainName(undefined)]).toEqual(['链 31337', '未知链']);
    });
  });
});
