import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '@/lib/api/http-answer';
import { IntentReceipt, WaitIntentReceiptResponse } from '@/lib/api/schemas/receipt';

// A receipt in the specified form (docs/protocol.md §3): numbers for amounts, specified enum values.
const specForm = `{
  "intentReceipt": {
    "id": 7, "projectId": 2, "intentId": "0xabc", "status": "EXECUTING", "ownerAddress": "0xowner",
    "originChainId": 42161, "destinationChainId": 8453,
    "originTransaction": { "id": 1, "chainId": 42161, "tokenAmount": 250000000, "status": "RELAYED", "bridgeGas": 21000 },
    "summary": { "originTokenAmount": 250000000, "destinationTokenAmount": 249100000,
                 "originTokenMetadata": { "chainId": 42161, "symbol": "USDC", "decimals": 6 } },
    "createdAt": "2026-11-21T10:00:00.000Z", "updatedAt": "2026-11-21T10:00:05.000Z"
  },
  "receiptStates": ["SUCCEEDED", "RELAYED", "UNKNOWN"],
  "done": false
}`;

// The deployed form (docs/protocol.md §3): string amounts, deployed-only enum values, extra fields, null legs.
const deployedForm = `{
  "intentReceipt": {
    "id": 7, "intentId": "0xabc", "status": "EXECUTING",
    "originTransaction": { "id": 1, "type": "ORIGIN", "statusUpdatedAt": "2026-11-21T10:00:01Z",
      "chainId": 42161, "tokenAmount": "7845000000000000000", "status": "SENT", "bridgeGas": "0" },
    "destinationTransaction": null,
    "summary": { "status": "EXECUTING", "tradeType": "EXACT_INPUT", "originTokenAmount": "7845000000000000000",
      "quotedOriginTokenAmount": "7845000000000000000" }
  },
  "receiptStates": ["SUCCEEDED", "SENT", "UNKNOWN"],
  "done": false
}`;

describe('WaitIntentReceiptResponse', () => {
  it('accepts the spec form and keeps number amounts as exact strings', () => {
    const r = WaitIntentReceiptResponse.parse(parseJsonExact(specForm));
    expect(r.intentReceipt.originTransaction?.tokenAmount).toBe('250000000');
    expect(r.intentReceipt.originTransaction?.bridgeGas).toBe('21000');
    expect(r.intentReceipt.summary?.destinationTokenAmount).toBe('249100000');
    expect(r.intentReceipt.originTransaction?.status).toBe('RELAYED');
    expect(r.receiptStates).toEqual(['SUCCEEDED', 'RELAYED', 'UNKNOWN']);
  });

  it('accepts the deployed form: string amounts, deployed enum values, extra fields, null legs', () => {
    const r = WaitIntentReceiptResponse.parse(parseJsonExact(deployedForm));
    expect(r.intentReceipt.originTransaction?.tokenAmount).toBe('7845000000000000000');
    expect(r.intentReceipt.originTransaction?.status).toBe('SENT');
    expect((r.intentReceipt.originTransaction as Record<string, unknown>).type).toBe('ORIGIN');
    expect(r.intentReceipt.destinationTransaction).toBeNull();
    expect(r.intentReceipt.summary?.quotedOriginTokenAmount).toBe('7845000000000000000');
  });

  it('keeps an unknown enum value as it came', () => {
    const r = IntentReceipt.parse({ intentId: '0x1', status: 'TELEPORTING', originTransaction: { status: 'WORMHOLED' } });
    expect(r.status).toBe('TELEPORTING');
    expect(r.originTransaction?.status).toBe('WORMHOLED');
  });

  it('keeps amounts above 2^53 exact, whether sent as a string or a JSON number', () => {
    const big = '123456789012345678901234567890';
    const asNumber = parseJsonExact(`{"intentId":"0x1","status":"SUCCEEDED","summary":{"originTokenAmount":${big}}}`);
    const asString = parseJsonExact(`{"intentId":"0x1","status":"SUCCEEDED","summary":{"originTokenAmount":"${big}"}}`);
    expect(IntentReceipt.parse(asNumber).summary?.originTokenAmount).toBe(big);
    expect(IntentReceipt.parse(asString).summary?.originTokenAmount).toBe(big);
    // 2^53 + 1 would become 2^53 through a float.
    const edge = parseJsonExact('{"intentId":"0x1","status":"X","originTransaction":{"tokenAmount":9007199254740993}}');
    expect(IntentReceipt.parse(edge).originTransaction?.tokenAmount).toBe('9007199254740993');
  });

  it('rejects a receipt without intentId or status, naming the field', () => {
    const r = WaitIntentReceiptResponse.safeParse({ intentReceipt: { status: 'SUCCEEDED' }, done: true });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['intentReceipt', 'intentId']);
  });
});
