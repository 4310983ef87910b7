import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '@/lib/api/http-answer';
import { GetIntentHistoryResponse } from '@/lib/api/schemas/history';
import { Intent, SearchIntentsResponse } from '@/lib/api/schemas/intent';
import { TokenInfo } from '@/lib/api/schemas/routes';

// An Intent in the specified form (docs/protocol.md §3, §8): every amount a JSON number.
const specIntent = `{
  "id": 1, "projectId": 2, "intentId": "0xabc", "status": "QUOTED", "ownerAddress": "0xowner",
  "originChainId": 1, "destinationChainId": 8453, "salt": 42,
  "quoteRequest": { "originTokenAmount": 1000000, "destinationCallValue": 0, "options": { "slippageTolerance": 0.005 } },
  "depositTransaction": { "amount": 1000000, "value": 0, "decimals": 6, "chainId": 1 },
  "originCalls": { "chainId": 1, "calls": [{ "to": "0x1", "value": 12345678901234567890, "gasLimit": 21000 }], "space": 0, "nonce": 1 },
  "originPrecondition": { "type": "erc20-balance", "minAmount": 1000000 },
  "quote": { "fromAmount": 1000000, "toAmount": 999000, "toAmountMin": 994005, "fromAmountUsd": 1.0, "estimatedDuration": 30,
             "priceImpactDetails": { "netPriceImpact": { "priceImpact": 0.1, "priceImpactUsd": 0.001 } } },
  "fees": { "totalFeeAmount": 1000, "totalFeeUsd": 0.001, "originGas": { "totalFeeAmount": 420000000000000, "totalFeeUsd": "1.34" },
            "provider": { "quoteProviderFee": 10, "svcFee": 20 } },
  "gasFeeOptions": { "feeOptions": [{ "amount": 3000, "amountUsd": 0.003, "tokenDecimals": 6 }] },
  "svcContracts": { "svcRouterAddress": "0xr" }
}`;

// The deployed form (docs/protocol.md §3): amounts as strings, extra fields.
const deployedIntent = specIntent
  .replace('"originTokenAmount": 1000000', '"originTokenAmount": "1000000"')
  .replace('"fromAmount": 1000000', '"fromAmount": "1000000"')
  .replace('"value": 12345678901234567890', '"value": "12345678901234567890"')
  .replace('"amount": 3000', '"amount": "3000"')
  .replace('"svcContracts"', '"tradeType": "EXACT_INPUT", "svcContracts"');

describe('Intent schema', () => {
  it('reads the spec form, amounts kept exact as strings (also above 2^53)', () => {
    const i = Intent.parse(parseJsonExact(specIntent));
    expect(i.quote?.fromAmount).toBe('1000000');
    expect(i.quote?.toAmountMin).toBe('994005');
    expect(i.originCalls?.calls?.[0]?.value).toBe('12345678901234567890');
    expect(i.fees?.originGas?.totalFeeAmount).toBe('420000000000000');
    expect(i.gasFeeOptions?.feeOptions?.[0]?.amount).toBe('3000');
    expect(i.originPrecondition?.minAmount).toBe('1000000');
    expect(i.quote?.priceImpactDetails?.netPriceImpact?.priceImpact).toBe(0.1);
  });
  it('reads the deployed form to the same values and keeps unknown fields', () => {
    const spec = Intent.parse(parseJsonExact(specIntent));
    const deployed = Intent.parse(parseJsonExact(deployedIntent));
    expect(deployed.quote).toEqual(spec.quote);
    expect(deployed.originCalls).toEqual(spec.originCalls);
    expect(deployed.gasFeeOptions).toEqual(spec.gasFeeOptions);
    expect((deployed as Record<string, unknown>).tradeType).toBe('EXACT_INPUT');
  });
});

describe('history, search and token schemas', () => {
  it('reads IntentHistory with balances in both forms, and a null nextPage', () => {
    const row = (balance: string) =>
      `{"intentId":"0x1","status":"FAILED","receipt":{"intentId":"0x1","status":"FAILED"},"hasBalance":true,
        "balances":[{"intentAddress":"0xa","chainId":1,"tokens":[{"contractAddress":"0xt","balance":${balance},"balanceUsd":"12.50","decimals":6,"symbol":"USDC"}]}]}`;
    const r = GetIntentHistoryResponse.parse(parseJsonExact(`{"intents":[${row('12500000')},${row('"12500000"')}],"nextPage":null}`));
    expect(r.intents.map((h) => h.balances?.[0]?.tokens?.[0]?.balance)).toEqual(['12500000', '12500000']);
    expect(r.nextPage).toBeNull();
  });
  it('keeps an unknown status in search results', () => {
    const r = SearchIntentsResponse.parse({ intents: [{ intentId: '0x1', status: 'PARTIALLY_FILLED' }] });
    expect(r.intents[0]?.status).toBe('PARTIALLY_FILLED');
  });
  it('requires the TokenInfo fields the spec marks required', () => {
    expect(
      TokenInfo.safeParse({ chainId: 1, address: '0x', name: 'USD Coin', symbol: 'USDC', decimals: 6, featured: true, featureIndex: 1 })
        .success,
    ).toBe(true);
    const missing = TokenInfo.safeParse({ chainId: 1, address: '0x', name: 'USD Coin', symbol: 'USDC', decimals: 6 });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues.map((i) => i.path[0])).toEqual(['featured', 'featureIndex']);
  });
});
