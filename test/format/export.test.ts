import { describe, expect, it } from 'vitest';
import { csvCell, exportCsv, exportJson } from '@/lib/format/export';
import type { TrackedIntent } from '@/lib/store';

const intent: TrackedIntent = {
  intentId: '0xabc',
  addedAt: Date.UTC(2026, 10, 21),
  lastStates: [],
  phase: 'final',
  notification: 'shown',
  status: 'FAILED',
  receipt: {
    intentId: '0xabc',
    status: 'FAILED',
    originChainId: 1,
    destinationChainId: 10,
    originTransaction: { status: 'FAILED', statusReason: 'reverted, "slippage"', txnHash: '0xhash' },
    summary: {
      originTokenAmount: '1234567890123456789012',
      originTokenMetadata: { symbol: 'WETH', decimals: 18 },
      destinationTokenAmount: '2500000',
      destinationTokenMetadata: { symbol: 'USDC', decimals: 6 },
    },
  },
};

describe('export', () => {
  it('writes CSV rows with raw and display amounts, quoting what needs it', () => {
    const lines = exportCsv([intent]).split('\r\n');
    expect(lines[0]!.split(',').slice(0, 11)).toEqual([
      'intentId',
      'status',
      'tracking',
      'originChainId',
      'destinationChainId',
      'originToken',
      'originAmountRaw',
      'originAmount',
      'destinationToken',
      'destinationAmountRaw',
      'destinationAmount',
    ]);
    expect(lines[1]).toContain('0xabc,FAILED,final,1,10,WETH,1234567890123456789012,1234.56789012,USDC,2500000,2.50,');
    expect(lines[1]).toContain('"reverted, ""slippage"""');
    expect(lines).toHaveLength(3);
  });
  it('neutralizes spreadsheet formulas', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell(42)).toBe('42');
  });
  it('writes JSON with the receipt and no settings', () => {
    const json = JSON.parse(exportJson([intent], Date.UTC(2026, 10, 21)));
    expect(json.intents[0]).toMatchObject({ intentId: '0xabc', originAmountRaw: '1234567890123456789012', originAmount: '1234.56789012' });
    expect(json.intents[0].receipt.intentId).toBe('0xabc');
    expect(JSON.stringify(json)).not.toMatch(/accessKey|X-Access-Key/i);
  });
});
