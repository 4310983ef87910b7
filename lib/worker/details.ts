/**
 * What the receipt view shows beyond the receipt: the intent's fee total (GetIntent), USD prices of its tokens
 * (GetTokenPrices) and, for an intent that ended without delivering, what its intent address still holds
 * (GetIntentHistory with `includeBalances`). Each part is optional: a failed call leaves its part out.
 */
import type { SvcClient } from '../api/client';
import { GUIDED_STATUSES } from '../format/guidance';
import type { IntentDetails } from '../messages';

type Client = Pick<SvcClient, 'getIntent' | 'getTokenPrices' | 'getIntentHistory'>;

const TIMEOUT = { timeoutMs: 15_000 };

/** The details of `intentId`; never throws for a failed part (an unknown intent gives `{}`). */
export async function intentDetails(client: Client, intentId: string): Promise<IntentDetails> {
  const intent = await client
    .getIntent({ intentId }, TIMEOUT)
    .then((r) => r.intent)
    .catch(() => undefined);
  if (!intent) return {};
  const details: IntentDetails = {};
  const fees = intent.fees;
  if (typeof fees?.totalFeeUsd === 'number') details.feeUsd = fees.totalFeeUsd;
  const tokens = [
    { chainId: intent.originChainId, tokenAddress: intent.originTokenAddress },
    { chainId: intent.destinationChainId, tokenAddress: intent.destinationTokenAddress },
  ].filter((t): t is { chainId: number; tokenAddress: string } => typeof t.chainId === 'number' && typeof t.tokenAddress === 'string');
  const created = Date.parse(intent.createdAt ?? '');
  const [prices, holdings] = await Promise.all([
    tokens.length ? client.getTokenPrices({ tokens }, TIMEOUT).catch(() => undefined) : Promise.resolve(undefined),
    GUIDED_STATUSES.includes(intent.status ?? '') && intent.ownerAddress && !Number.isNaN(created)
      ? client
          .getIntentHistory(
            {
              byOwnerAddress: intent.ownerAddress,
              fromTime: Math.floor(created / 1000) - 1,
              toTime: Math.ceil(created / 1000) + 1,
              includeBalances: true,
              page: { pageSize: 100 },
            },
            TIMEOUT,
          )
          .catch(() => undefined)
      : Promise.resolve(undefined),
  ]);
  const priceOf = (chainId: unknown, address: unknown) =>
    prices?.tokenPrices.find((p) => p.token.chainId === chainId && p.token.tokenAddress?.toLowerCase() === String(address).toLowerCase())
      ?.priceUsd ?? undefined;
  const origin = priceOf(intent.originChainId, intent.originTokenAddress);
  const destination = priceOf(intent.destinationChainId, intent.destinationTokenAddress);
  if (origin !== undefined || destination !== undefined) {
    details.prices = { ...(origin !== undefined ? { origin } : {}), ...(destination !== undefined ? { destination } : {}) };
  }
  const row = holdings?.intents.find((i) => i.intentId === intentId);
  if (row) details.holdings = row.hasBalance === false ? [] : (row.balances ?? []);
  return details;
}
