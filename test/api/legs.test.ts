/** The legs of a receipt (spec "Receipts": deposit, origin, destination, refund transactions) and the search by hash. */
import { describe, expect, it } from 'vitest';
import { hasLegHash, LEG_KINDS, legOf } from '@/lib/api/legs';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';

const tx = (txnHash: string) => ({ txnHash }) as unknown as NonNullable<IntentReceipt['depositTransaction']>;
const receipt = (
  legs: Partial<Record<'depositTransaction' | 'originTransaction' | 'destinationTransaction' | 'refundTransaction', unknown>>,
) => ({ intentId: '0x1', status: 'COMMITTED', ...legs }) as unknown as IntentReceipt;

describe('legOf', () => {
  it('gives each leg its own transaction', () => {
    const r = receipt({
      depositTransaction: tx('0xd'),
      originTransaction: tx('0xo'),
      destinationTransaction: tx('0xde'),
      refundTransaction: tx('0xr'),
    });
    expect(LEG_KINDS.map((kind) => legOf(r, kind)?.txnHash)).toEqual(['0xd', '0xo', '0xde', '0xr']);
  });
  it('gives undefined for a leg the receipt does not carry (absent or null)', () => {
    const r = receipt({ destinationTransaction: tx('0xde'), refundTransaction: null });
    expect(legOf(r, 'refund')).toBeUndefined();
    expect(legOf(r, 'deposit')).toBeUndefined();
  });
});

describe('hasLegHash', () => {
  const r = receipt({ originTransaction: tx('0xAbC1'), refundTransaction: tx('0xfeed'), destinationTransaction: { status: 'PENDING' } });
  it('finds the hash of any one leg, whatever the case of either side', () => {
    expect(hasLegHash(r, '0xabc1')).toBe(true);
    expect(hasLegHash(r, '0xABC1')).toBe(true);
    expect(hasLegHash(r, '0xFEED')).toBe(true);
  });
  it('is false for a hash no leg has, and for a receipt without legs or hashes', () => {
    expect(hasLegHash(r, '0xabc2')).toBe(false);
    expect(hasLegHash(receipt({}), '0xabc1')).toBe(false);
    expect(hasLegHash(receipt({ depositTransaction: { status: 'PENDING' } }), '0xabc1')).toBe(false);
  });
});
