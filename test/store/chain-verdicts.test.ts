/**
 * The stored on-chain verdicts (lib/store/chain-verdicts.ts, lib/store/chain.ts): a verdict of the expected shape is
 * read back as written, anything else reads as none, and an area that refuses the read gives no verdicts instead of
 * an error; the chain preferences round-trip through the same area.
 */
import { describe, expect, it } from 'vitest';
import {
  CHAIN_PREFERENCES_KEY,
  CHAIN_VERDICT_PREFIX,
  chainVerdictKey,
  loadChainPreferences,
  loadChainVerdicts,
  readChainVerdict,
  saveChainPreferences,
} from '@/lib/store/chain';
import { verdictLineOf } from '@/lib/store/chain-verdicts';
import type { ChainVerdict } from '@/lib/store/types';

const A = `0x${'a'.repeat(64)}`;
const B = `0x${'b'.repeat(64)}`;
const verdict = (intentId: string): ChainVerdict => ({
  intentId,
  verified: true,
  settled: false,
  legs: [
    { leg: 'origin', chainId: 42161, kind: 'final', text: 'Final on Arbitrum One' },
    { leg: 'destination', chainId: 8453, kind: 'confirmed', text: 'Confirmed on Base', transfer: 'Received 1 USDC' },
  ],
});

describe('readChainVerdict', () => {
  it('reads a well-formed verdict back as written', () => {
    expect(readChainVerdict(structuredClone(verdict(A)))).toEqual(verdict(A));
  });

  it('reads verified and settled as true only when they are exactly true', () => {
    const v = readChainVerdict({ ...verdict(A), verified: 'yes', settled: true });
    expect(v?.verified).toBe(false);
    expect(v?.settled).toBe(true);
    expect(readChainVerdict({ ...verdict(A), verified: 1, settled: 1 })).toMatchObject({ verified: false, settled: false });
  });

  it('leaves out a transfer that is not a string, and keeps the leg', () => {
    const raw = { ...verdict(A), legs: [{ leg: 'destination', chainId: 8453, kind: 'final', text: 't', transfer: 5 }] };
    const v = readChainVerdict(raw);
    expect(v?.legs).toEqual([{ leg: 'destination', chainId: 8453, kind: 'final', text: 't' }]);
    expect(v?.legs[0] && 'transfer' in v.legs[0]).toBe(false);
  });

  it('reads anything not of the shape as none', () => {
    const leg = { leg: 'origin', chainId: 1, kind: 'final', text: 't' };
    for (const raw of [
      undefined,
      null,
      'verdict',
      { legs: [] },
      { intentId: 7, legs: [] },
      { intentId: A },
      { intentId: A, legs: 'none' },
      { intentId: A, legs: [null] },
      { intentId: A, legs: [leg, 'x'] },
      { intentId: A, legs: [{ ...leg, leg: 1 }] },
      { intentId: A, legs: [{ ...leg, chainId: '1' }] },
      { intentId: A, legs: [{ ...leg, kind: undefined }] },
      { intentId: A, legs: [{ ...leg, text: null }] },
    ])
      expect(readChainVerdict(raw), JSON.stringify(raw) ?? 'undefined').toBeUndefined();
    expect(readChainVerdict({ intentId: A, legs: [] })).toEqual({ intentId: A, verified: false, settled: false, legs: [] });
  });
});

describe('loadChainVerdicts', () => {
  it('asks the area for the keys of the intents and returns those that have a readable verdict', async () => {
    expect(chainVerdictKey(A)).toBe(`chainVerdict:${A}`);
    expect(CHAIN_VERDICT_PREFIX).toBe('chainVerdict:');
    const asked: unknown[] = [];
    const area = {
      get: async (keys: string | string[] | null) => {
        asked.push(keys);
        return { [`chainVerdict:${A}`]: verdict(A), [`chainVerdict:${B}`]: { intentId: B } };
      },
    };
    const out = await loadChainVerdicts(area, [A, B]);
    expect(asked).toEqual([[`chainVerdict:${A}`, `chainVerdict:${B}`]]);
    expect([...out.entries()]).toEqual([[A, verdict(A)]]);
  });

  it('does not read the area for no intents', async () => {
    let reads = 0;
    const out = await loadChainVerdicts(
      {
        get: async () => {
          reads++;
          return {};
        },
      },
      [],
    );
    expect(out.size).toBe(0);
    expect(reads).toBe(0);
  });

  it('gives no verdicts when the area refuses the read', async () => {
    const out = await loadChainVerdicts({ get: () => Promise.reject(new Error('quota')) }, [A]);
    expect(out.size).toBe(0);
  });
});

describe('chain preferences in storage.local', () => {
  it('round-trip under chainPreferences', async () => {
    const items: Record<string, unknown> = {};
    const area = {
      get: async (key: string | string[] | null) => ({ [key as string]: items[key as string] }),
      set: async (v: Record<string, unknown>) => {
        Object.assign(items, v);
      },
    };
    expect(CHAIN_PREFERENCES_KEY).toBe('chainPreferences');
    expect(await loadChainPreferences(area)).toEqual({});
    await saveChainPreferences(area, { '8453': { enabled: true, rpcUrl: 'https://base.example/rpc' } });
    expect(Object.keys(items)).toEqual(['chainPreferences']);
    expect(await loadChainPreferences(area)).toEqual({ '8453': { enabled: true, rpcUrl: 'https://base.example/rpc' } });
  });

  it('read as none when the area refuses the read', async () => {
    expect(await loadChainPreferences({ get: () => Promise.reject(new Error('gone')) })).toEqual({});
  });
});

describe('verdictLineOf', () => {
  const line = (txnHash?: string) => ({
    leg: 'destination',
    chainId: 8453,
    kind: 'final',
    text: 'Final on Base',
    ...(txnHash ? { txnHash } : {}),
  });
  const of = (...legs: ReturnType<typeof line>[]): ChainVerdict => ({ intentId: A, verified: false, settled: false, legs });
  it('gives the line made for the leg’s chain and transaction, none for another transaction or chain', () => {
    expect(verdictLineOf(of(line(A)), 'destination', { chainId: 8453, txnHash: A.toUpperCase().replace('0X', '0x') })).toEqual(line(A));
    expect(verdictLineOf(of(line(B)), 'destination', { chainId: 8453, txnHash: A })).toBeUndefined();
    expect(verdictLineOf(of(line(A)), 'destination', { chainId: 42161, txnHash: A })).toBeUndefined();
    expect(verdictLineOf(of(line(A)), 'origin', { chainId: 8453, txnHash: A })).toBeUndefined();
  });
  it('matches a line stored without its transaction by leg and chain', () => {
    expect(verdictLineOf(of(line()), 'destination', { chainId: 8453, txnHash: A })).toEqual(line());
  });
  it('reads back a line kept from an earlier worker life', () => {
    const kept = of({ ...line(A), lastKnown: true } as ReturnType<typeof line>);
    expect(readChainVerdict(structuredClone(kept))).toEqual(kept);
  });
  it('reads back what a kept final destination moved, to whom and in which token', () => {
    const kept = {
      ...line(A),
      kind: 'final',
      final: true,
      received: '249100000',
      recipient: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      token: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
    };
    expect(readChainVerdict(structuredClone(of(kept)))?.legs[0]).toEqual(kept);
    expect(readChainVerdict(of({ ...kept, recipient: 7, token: null } as unknown as typeof kept))?.legs[0]).not.toHaveProperty('recipient');
  });
});
