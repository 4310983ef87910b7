/**
 * The latest on-chain verdict of each tracked intent in storage.local (`chainVerdict:<intentId>`, docs/chain.md): written
 * by the worker (lib/worker/chain-wiring.ts), read by the popup. No import beyond types: it is in the popup's bundle.
 */
import type { ChainVerdict, ChainVerdictLeg } from './types';

/** Prefix of the storage.local key of one intent's {@link ChainVerdict}. */
export const CHAIN_VERDICT_PREFIX = 'chainVerdict:';

/** The storage.local key of `intentId`'s verdict. */
export const chainVerdictKey = (intentId: string): string => `${CHAIN_VERDICT_PREFIX}${intentId}`;

/** The part of a `browser.storage` area used here. */
export interface StorageArea {
  get(keys: string | string[] | null): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string | string[]): Promise<void>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The optional fields of a stored line and their types; any other value of them is dropped. */
const OPTIONAL: ReadonlyArray<[keyof ChainVerdictLeg, string]> = [
  ['txnHash', 'string'],
  ['transfer', 'string'],
  ['blockNumber', 'string'],
  ['blockHash', 'string'],
  ['confirmations', 'number'],
  ['final', 'boolean'],
  ['received', 'string'],
  ['recipient', 'string'],
  ['token', 'string'],
  ['lastKnown', 'boolean'],
];

function readLeg(raw: unknown): ChainVerdictLeg | undefined {
  if (!isObject(raw)) return undefined;
  const { leg, chainId, kind, text } = raw;
  if (typeof leg !== 'string' || typeof chainId !== 'number' || typeof kind !== 'string' || typeof text !== 'string') return undefined;
  const line: Record<string, unknown> = { leg, chainId, kind, text };
  for (const [name, type] of OPTIONAL) if (typeof raw[name] === type) line[name] = raw[name];
  return line as unknown as ChainVerdictLeg;
}

/** A stored verdict, or undefined when it is absent or not of the expected shape (then nothing is shown). */
export function readChainVerdict(raw: unknown): ChainVerdict | undefined {
  if (!isObject(raw) || typeof raw.intentId !== 'string' || !Array.isArray(raw.legs)) return undefined;
  const legs = raw.legs.map(readLeg);
  if (legs.some((l) => l === undefined)) return undefined;
  return {
    intentId: raw.intentId,
    verified: raw.verified === true,
    settled: raw.settled === true,
    ...(typeof raw.serviceStatus === 'string' ? { serviceStatus: raw.serviceStatus } : {}),
    legs: legs as ChainVerdictLeg[],
  };
}

/** The stored verdicts of `intentIds` (those that have one). */
export async function loadChainVerdicts(area: Pick<StorageArea, 'get'>, intentIds: readonly string[]): Promise<Map<string, ChainVerdict>> {
  const out = new Map<string, ChainVerdict>();
  if (intentIds.length === 0) return out;
  const stored = await area.get(intentIds.map(chainVerdictKey)).catch(() => ({}) as Record<string, unknown>);
  for (const id of intentIds) {
    const v = readChainVerdict(stored[chainVerdictKey(id)]);
    if (v) out.set(id, v);
  }
  return out;
}

/**
 * The line of `verdict` for the receipt's leg `kind` as it is now (`leg`: its chainId and txnHash): made for that
 * leg's chain and transaction (hash compared lower-case; a line stored without a hash matches by leg and chain), so
 * that a verdict on a transaction the service has since replaced is not shown on the new one.
 */
export function verdictLineOf(
  verdict: ChainVerdict | undefined,
  kind: string,
  leg: { chainId?: number | null; txnHash?: string | null },
): ChainVerdictLeg | undefined {
  const hash = leg.txnHash?.toLowerCase();
  return verdict?.legs.find(
    (l) => l.leg === kind && l.chainId === leg.chainId && (l.txnHash === undefined || l.txnHash.toLowerCase() === hash),
  );
}
