import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { compactRecord, StringInterner } from '@/lib/store/intern';

const hex = (i: number, width = 64) => `0x${i.toString(16).padStart(width, '0')}`;

/** A tracked record shaped as the worker holds them, its receipt as JSON brings it (every string its own copy). */
function record(i: number): TrackedIntent {
  const receipt = {
    intentId: hex(i),
    status: 'SUCCEEDED',
    ownerAddress: hex(7, 40),
    createdAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    legs: [{ type: 'DEPOSIT', txnHash: hex(100_000 + i), status: 'SUCCEEDED' }],
    summary: { originTokenMetadata: { symbol: 'USDC', name: 'USD Coin', logoUri: 'https://assets.example/usdc.png' } },
  };
  return JSON.parse(
    JSON.stringify({
      intentId: hex(i),
      addedAt: i,
      receipt,
      status: 'SUCCEEDED',
      lastStates: ['SUCCEEDED'],
      phase: 'final',
      notification: 'shown',
    }),
  ) as TrackedIntent;
}

describe('StringInterner', () => {
  it('never holds more than its cap, whatever it is given', () => {
    const strings = new StringInterner(100);
    let most = 0;
    for (let i = 0; i < 10_000; i++) {
      strings.string(`value ${i}`);
      most = Math.max(most, strings.size);
    }
    expect(most).toBe(100);
    expect(strings.size).toBeLessThanOrEqual(100);
  });

  it('holds each repeated value once: 5,000 records add only the strings they share', () => {
    const strings = new StringInterner();
    for (let i = 0; i < 5_000; i++) compactRecord(record(i), strings);
    // status and SUCCEEDED (one value), owner, DEPOSIT, phase 'final', 'shown', USDC, USD Coin, logo: the unique
    // fields (intentId, txnHash, createdAt) are left out, so the table does not grow with the records.
    expect(strings.size).toBe(8);
  });

  it('leaves every value equal to what it was, and long strings out of the table', () => {
    const strings = new StringInterner(4_096, 20);
    const r = record(3);
    const before = structuredClone(r);
    expect(compactRecord(r, strings)).toBe(r);
    expect(r).toEqual(before);
    expect(strings.string('x'.repeat(21))).toBe('x'.repeat(21));
    expect(strings.size).toBe(6); // the owner address (42 characters) and the logo URL (30) are longer than 20
  });

  it('returns the first instance of a value for any later equal one', () => {
    const strings = new StringInterner();
    const first = ['SUCC', 'EEDED'].join('');
    strings.string(first);
    const later = ['SUCCEE', 'DED'].join('');
    expect(strings.string(later)).toBe(first);
    expect(strings.size).toBe(1);
  });
});
