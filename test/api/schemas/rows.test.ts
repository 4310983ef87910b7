/** List answers read row by row (lib/api/schemas/rows.ts): bad rows set aside with their place, intentId and reason. */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { issuePath, rowsOf } from '@/lib/api/schemas/rows';

const Row = z.looseObject({ intentId: z.string(), receipt: z.looseObject({ legs: z.array(z.looseObject({ status: z.string() })) }) });
const good = (intentId: string) => ({ intentId, receipt: { legs: [{ status: 'PENDING' }] } });

describe('issuePath', () => {
  it('writes a path as a.b[0].c', () => {
    expect(issuePath(['receipt', 'legs', 0, 'status'])).toBe('receipt.legs[0].status');
    expect(issuePath([0, 'status'])).toBe('[0].status');
    expect(issuePath([])).toBe('');
  });
});

describe('rowsOf', () => {
  it('uses the good rows and sets the others aside with their place, intentId and the offending field', () => {
    const bad = { intentId: '0xbad', receipt: { legs: [{ status: 'PENDING' }, { status: 7 }] } };
    const rows = rowsOf(Row, [good('0x1'), bad, good('0x2')]);
    expect(rows.intents.map((r) => r.intentId)).toEqual(['0x1', '0x2']);
    expect(rows.setAside).toHaveLength(1);
    expect(rows.setAside?.[0]).toMatchObject({ index: 1, intentId: '0xbad' });
    expect(rows.setAside?.[0]?.reason.startsWith('receipt.legs[1].status')).toBe(true);
  });

  it('never throws on rows that are not objects (null, a number, a string), and gives them no intentId', () => {
    const rows = rowsOf(Row, [null, 42, 'text', { intentId: 5 }]);
    expect(rows.intents).toEqual([]);
    expect(rows.setAside?.map((s) => s.index)).toEqual([0, 1, 2, 3]);
    for (const s of rows.setAside ?? []) expect(s.intentId).toBeUndefined();
  });

  it('has no setAside at all when every row is good', () => {
    expect(rowsOf(Row, [good('0x1')])).toEqual({ intents: [good('0x1')] });
    expect(Object.hasOwn(rowsOf(Row, []), 'setAside')).toBe(false);
  });
});
