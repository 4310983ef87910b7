/**
 * QuoteIntent → CommitIntent → ExecuteIntent (spec §4.5, §4.7 and the deployed shapes of the wire notes),
 * GetTokenPrices and GetExactOutputRoutes (spec §4.6) of the simulator.
 *
 * CommitIntent accepts an intent only when it is exactly as quoted: the JSON value sent must equal the one
 * QuoteIntent returned, number literals compared as text. Any change → InvalidArgument (2000) naming the first
 * differing field. Committing twice → IntentStatus (2004). ExecuteIntent more than 10 minutes after the commit →
 * QuoteExpired (7001); before the commit → IntentStatus (2004).
 */
import { isDeepStrictEqual } from 'node:util';
import { parse as parseLossless } from 'lossless-json';
import { buildIntent, hexOf, SCRIPTS, type SimIntent } from './lifecycle';
import { CATALOGUE, convertRaw, findToken, type SimToken } from './tokens';

/** An error the server maps to its webrpc body. */
export class ServiceError extends Error {
  constructor(
    readonly errorName: 'InvalidArgument' | 'NotFound' | 'IntentStatus' | 'QuoteExpired' | 'UnsupportedNetwork',
    msg: string,
  ) {
    super(msg);
  }
}

/** Execution window after commit (spec §8). */
export const EXECUTION_WINDOW_MS = 10 * 60_000;

type Json = Record<string, unknown>;

const tokenOrFail = (chainId: unknown, address: unknown, what: string): SimToken => {
  if (typeof chainId !== 'number') throw new ServiceError('InvalidArgument', `${what}ChainId is required`);
  if (typeof address !== 'string') throw new ServiceError('InvalidArgument', `${what}TokenAddress is required`);
  if (!CATALOGUE.some((t) => t.chainId === chainId)) throw new ServiceError('UnsupportedNetwork', `chain ${chainId} is not supported`);
  const token = findToken(chainId, address);
  if (!token) throw new ServiceError('InvalidArgument', `unknown ${what} token ${address} on chain ${chainId}`);
  return token;
};

const rawOrFail = (v: unknown, name: string): bigint => {
  const text = typeof v === 'number' ? String(v) : v;
  if (typeof text !== 'string' || !/^\d+$/.test(text) || BigInt(text) === 0n)
    throw new ServiceError('InvalidArgument', `${name} must be a positive integer amount`);
  return BigInt(text);
};

/** QuoteIntent: creates a QUOTED intent; returns `{intent, gasFeeOptions}`. */
export function quoteIntent(req: Json, now: number, nextId: () => number, store: (i: SimIntent) => void): Json {
  if (typeof req.ownerAddress !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(req.ownerAddress)) {
    throw new ServiceError('InvalidArgument', 'ownerAddress must be a 0x address');
  }
  const origin = tokenOrFail(req.originChainId, req.originTokenAddress, 'origin');
  const destination = tokenOrFail(req.destinationChainId, req.destinationTokenAddress, 'destination');
  const tradeType = req.tradeType ?? 'EXACT_INPUT';
  let originAmount: bigint;
  let destinationAmount: bigint;
  if (tradeType === 'EXACT_OUTPUT') {
    destinationAmount = rawOrFail(req.destinationTokenAmount, 'destinationTokenAmount');
    originAmount = (convertRaw(destinationAmount, destination, origin) * 10_030n) / 10_000n + 1n;
  } else if (tradeType === 'EXACT_INPUT') {
    originAmount = rawOrFail(req.originTokenAmount, 'originTokenAmount');
    destinationAmount = convertRaw(originAmount, origin, destination, 30);
  } else {
    throw new ServiceError('InvalidArgument', `tradeType must be EXACT_INPUT or EXACT_OUTPUT`);
  }
  const numericId = nextId();
  const intent: SimIntent = {
    intentId: `0x${hexOf('quote', numericId, now)}`,
    numericId,
    projectId: 1,
    ownerAddress: req.ownerAddress.toLowerCase(),
    origin,
    destination,
    originAmount: originAmount.toString(),
    destinationAmount: destinationAmount.toString(),
    createdAt: now,
    startedAt: Number.MAX_SAFE_INTEGER,
    stepMs: 1500,
    script: [{ intent: 'QUOTED' }],
    failureReason: '',
    estimatedDuration: 45,
  };
  const body = buildIntent(intent, 'QUOTED');
  if (tradeType === 'EXACT_OUTPUT') (body.quoteRequest as Json).destinationTokenAmount = destinationAmount.toString();
  intent.quotedWire = JSON.stringify(body);
  intent.startedAt = now;
  store(intent);
  return { intent: body, gasFeeOptions: body.gasFeeOptions };
}

/** First path at which two JSON values differ ("" when equal). */
function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (isDeepStrictEqual(a, b)) return '';
  if (typeof a === 'object' && a && typeof b === 'object' && b && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as Json)[k], (b as Json)[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
  }
  return path || '(intent)';
}

/** Parses JSON keeping number literals as marked text, so `1.0` and `1` differ as they would byte for byte. */
function losslessValue(json: string): unknown {
  return parseLossless(json, null, (literal: string) => `\u0000${literal}`);
}

/** CommitIntent: `rawBody` is the request's JSON text; moves a QUOTED intent to COMMITTED. */
export function commitIntent(rawBody: string, intents: Map<string, SimIntent>, now: number): Json {
  const body = losslessValue(rawBody) as Json;
  const sent = body.intent as Json | undefined;
  if (!sent || typeof sent !== 'object') throw new ServiceError('InvalidArgument', 'intent is required');
  const id = typeof sent.intentId === 'string' ? sent.intentId.toLowerCase() : '';
  const stored = intents.get(id);
  if (!stored?.quotedWire) throw new ServiceError('NotFound', 'no quoted intent with this intentId');
  if (stored.committedAt !== undefined) throw new ServiceError('IntentStatus', 'intent is already COMMITTED');
  const diff = firstDifference(sent, losslessValue(stored.quotedWire));
  if (diff) throw new ServiceError('InvalidArgument', `intent was modified after the quote: ${diff} differs`);
  if (now > Date.parse(String((JSON.parse(stored.quotedWire) as Json).expiresAt)))
    throw new ServiceError('QuoteExpired', 'the quote expired');
  stored.committedAt = now;
  stored.script = [{ intent: 'COMMITTED' }];
  stored.startedAt = now;
  return { intentId: stored.intentId };
}

/** ExecuteIntent: starts a committed intent's execution (success script from now). */
export function executeIntent(req: Json, intents: Map<string, SimIntent>, now: number): Json {
  const id = typeof req.intentId === 'string' ? req.intentId.toLowerCase() : '';
  if (!id) throw new ServiceError('InvalidArgument', 'intentId is required');
  const intent = intents.get(id);
  if (!intent) throw new ServiceError('NotFound', 'intent not found');
  if (intent.committedAt === undefined) throw new ServiceError('IntentStatus', 'intent is not COMMITTED: commit it first');
  if (intent.script.length > 1) throw new ServiceError('IntentStatus', 'intent is already executing');
  if (now - intent.committedAt > EXECUTION_WINDOW_MS) {
    throw new ServiceError('QuoteExpired', 'not executed within 10 minutes of commit: quote and commit again');
  }
  intent.script = SCRIPTS.success.slice(1);
  intent.startedAt = now;
  return { intentId: intent.intentId, intentStatus: 'EXECUTING' };
}

/** GetTokenPrices: `{tokens:[{chainId, tokenAddress}]}` → `{tokenPrices:[{token, priceUsd?, updatedAt}]}`. */
export function tokenPrices(req: Json, now: number): Json {
  if (!Array.isArray(req.tokens)) throw new ServiceError('InvalidArgument', 'tokens must be a list');
  return {
    tokenPrices: (req.tokens as Json[]).map((t) => {
      const found = typeof t.chainId === 'number' && typeof t.tokenAddress === 'string' ? findToken(t.chainId, t.tokenAddress) : undefined;
      return {
        token: { chainId: t.chainId, tokenAddress: t.tokenAddress },
        ...(found ? { priceUsd: found.priceUsd } : {}),
        updatedAt: new Date(now).toISOString(),
      };
    }),
  };
}

/** Whether an owner holds a token in this simulation (deterministic, about two in three). */
export function ownerHolds(owner: string, token: SimToken): boolean {
  return Number.parseInt(hexOf(owner.toLowerCase(), token.chainId, token.address.toLowerCase()).slice(0, 2), 16) % 3 !== 0;
}

/**
 * GetExactOutputRoutes: tokens from which the destination token can be reached; featured first by featureIndex,
 * then by symbol and chain. Unknown destination token → empty list.
 */
export function exactOutputRoutes(req: Json): Json {
  if (typeof req.destinationChainId !== 'number' || typeof req.destinationTokenAddress !== 'string') {
    throw new ServiceError('InvalidArgument', 'destinationChainId and destinationTokenAddress are required');
  }
  const destination = findToken(req.destinationChainId, req.destinationTokenAddress);
  if (!destination) return { tokens: [] };
  const originToken = typeof req.originTokenAddress === 'string' ? req.originTokenAddress.toLowerCase() : undefined;
  const tokens = CATALOGUE.filter((t) => t !== destination && t.supportsBridging)
    .filter((t) => req.originChainId === undefined || req.originChainId === null || t.chainId === req.originChainId)
    .filter((t) => !originToken || t.address.toLowerCase() === originToken)
    .filter((t) => typeof req.ownerAddress !== 'string' || ownerHolds(req.ownerAddress, t))
    .sort((a, b) =>
      a.featured !== b.featured
        ? a.featured
          ? -1
          : 1
        : a.featured && a.featureIndex !== b.featureIndex
          ? a.featureIndex - b.featureIndex
          : a.symbol.localeCompare(b.symbol) || a.chainId - b.chainId,
    )
    .map((t) => ({
      chainId: t.chainId,
      address: t.address,
      name: t.name,
      symbol: t.symbol,
      decimals: t.decimals,
      featured: t.featured,
      featureIndex: t.featureIndex,
      supportsBridging: t.supportsBridging,
      logoUri: t.logoUri,
    }));
  return { tokens };
}
