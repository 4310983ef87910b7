/**
 * What the chain verification keeps of a leg whose chain is not turned on (docs/memory.md): nothing, so that a desk
 * tracking thousands with no chain verified holds no per-leg state; and what it does keep (a leg read while its chain
 * was on, a stored final verdict) is still dropped when the intent is forgotten.
 */
import { describe, expect, it } from 'vitest';
import type { ChainSetting } from '@/lib/chain/verifier';
import {
  BASE_CHAIN_ID,
  chainVerification,
  DEST_HASH,
  DESTINATION,
  finalReceived,
  keptLine,
  ORIGIN,
  observations,
  receipt,
  scriptedReader,
} from './chain-fixtures';

const { received } = observations();
const DEST = { chainId: BASE_CHAIN_ID, txnHash: DEST_HASH };
const ORIGIN_REF = { chainId: BASE_CHAIN_ID, txnHash: ORIGIN as `0x${string}` };

/** A harness whose Base setting the test turns on and off (`chains.on`). */
function setup(answers = [received(100n), received(101n)]) {
  const chains = { on: false };
  const reader = scriptedReader(answers);
  const setting = (chainId: number): ChainSetting | undefined =>
    chains.on && chainId === BASE_CHAIN_ID ? { rpcUrl: 'https://rpc.example.org', finalityDepth: 10 } : undefined;
  const h = chainVerification({ reader, setting });
  const verifier = h.newVerifier();
  return { chains, reader, verifier, service: h.newService(verifier) };
}

describe('legs of a chain not turned on', () => {
  it('are read nowhere and remembered nowhere, for any number of intents', async () => {
    const { reader, verifier, service } = setup();
    for (let i = 0; i < 50; i++) {
      const v = await service.verifyReceipt(
        receipt('EXECUTING', { intentId: `0x${i}`, withOrigin: true, txnHash: `0x${i.toString(16).padStart(64, 'e')}` }),
      );
      expect(v.legs).toEqual([]);
      expect(v.nextCheckMs).toBeUndefined();
    }
    expect(reader.asked).toEqual([]);
    expect(verifier.knows(ORIGIN_REF)).toBe(false);
    expect(verifier.knows({ chainId: BASE_CHAIN_ID, txnHash: `0x${'0'.padStart(64, 'e')}` })).toBe(false);
  });

  it('start to be read when their chain is turned on, and are forgotten with their intent', async () => {
    const { chains, reader, verifier, service } = setup();
    await service.verifyReceipt(receipt('EXECUTING'));
    expect(verifier.knows(DEST)).toBe(false);
    chains.on = true;
    const v = await service.verifyReceipt(receipt('EXECUTING'));
    expect(v.legs.map((l) => l.text)).toEqual(['Confirmed on Base · block 100 · 1 confirmation']);
    expect(reader.asked).toEqual([DEST_HASH]);
    expect(verifier.knows(DEST)).toBe(true);
    service.forget('0xintent');
    expect(verifier.knows(DEST)).toBe(false);
  });

  it('keep what was read while the chain was on after it is turned off, until the intent is forgotten', async () => {
    const { chains, verifier, service } = setup();
    chains.on = true;
    await service.verifyReceipt(receipt('EXECUTING'));
    chains.on = false;
    // Verified again with the chain off: the leg is neither read nor shown, but what is known of it stays.
    const v = await service.verifyReceipt(receipt('EXECUTING'));
    expect(verifier.knows(DEST)).toBe(true);
    expect(v.legs).toEqual([]);
    service.forget('0xintent');
    expect(verifier.knows(DEST)).toBe(false);
  });

  it('keep a stored final verdict (no request), and drop it when the intent is forgotten', async () => {
    const { reader, verifier, service } = setup();
    const line = keptLine(DESTINATION, finalReceived(100n, 10));
    const v = await service.verifyReceipt(receipt('SUCCEEDED'), {
      known: { intentId: '0xintent', verified: true, settled: true, legs: [line] },
    });
    // Not shown while its chain is off, and not asked of it.
    expect(v.legs).toEqual([]);
    expect(reader.asked).toEqual([]);
    expect(verifier.knows(DEST)).toBe(true);
    service.forget('0xintent');
    expect(verifier.knows(DEST)).toBe(false);
  });
});
