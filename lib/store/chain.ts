/**
 * The on-chain verification items of `storage.local` (issue 28), typed in one place: the user's per-chain
 * preferences (`chainPreferences`, written by the options and welcome pages, read by the worker), the disagreement
 * keys already told (`chainTold`) and the latest verdict of each tracked intent (`chainVerdict:<intentId>`, written by
 * the worker, read by the popup). All of them stay on this device: an RPC URL may carry a provider's key in its path,
 * and the host permission it needs is granted per browser, so none is synced (unlike the notification choices).
 * Plain data, no viem: the pages import this module.
 */
import { type ChainPreferences, readChainPreferences } from '../chain/settings';
import type { ChainVerdict, ChainVerdictLeg } from './types';

/** storage.local key of the user's per-chain preferences ({@link ChainPreferences}). */
export const CHAIN_PREFERENCES_KEY = 'chainPreferences';
/** storage.local key of the disagreement keys already told (a list, oldest first, at most a few thousand). */
export const CHAIN_TOLD_KEY = 'chainTold';
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

/** The user's chain preferences as stored (a damaged entry turns its chain off; an unreadable area reads as none). */
export async function loadChainPreferences(area: Pick<StorageArea, 'get'>): Promise<ChainPreferences> {
  const stored = await area.get(CHAIN_PREFERENCES_KEY).catch(() => ({}) as Record<string, unknown>);
  return readChainPreferences(stored[CHAIN_PREFERENCES_KEY]);
}

/** Stores the user's chain preferences (rejects when the area refuses the write). */
export async function saveChainPreferences(area: Pick<StorageArea, 'set'>, preferences: ChainPreferences): Promise<void> {
  await area.set({ [CHAIN_PREFERENCES_KEY]: preferences });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function readLeg(raw: unknown): ChainVerdictLeg | undefined {
  if (!isObject(raw)) return undefined;
  const { leg, chainId, kind, text, transfer } = raw;
  if (typeof leg !== 'string' || typeof chainId !== 'number' || typeof kind !== 'string' || typeof text !== 'string') return undefined;
  return { leg, chainId, kind, text, ...(typeof transfer === 'string' ? { transfer } : {}) };
}

/** A stored verdict, or undefined when it is absent or not of the expected shape (then nothing is shown). */
export function readChainVerdict(raw: unknown): ChainVerdict | undefined {
  if (!isObject(raw) || typeof raw.intentId !== 'string' || !Array.isArray(raw.legs)) return undefined;
  const legs = raw.legs.map(readLeg);
  if (legs.some((l) => l === undefined)) return undefined;
  return { intentId: raw.intentId, verified: raw.verified === true, settled: raw.settled === true, legs: legs as ChainVerdictLeg[] };
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
