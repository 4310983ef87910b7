/**
 * The user's on-chain verification settings (docs/chain.md): off for every chain until the user turns it
 * on; per chain, an RPC URL (default: viem's public RPC URL, lib/chain/known-chains.ts; replaceable by the user's
 * own) and a finality depth (default: the chain's). The host permission asked for is exactly the RPC URL's origin,
 * as for the service. Pure: the options page stores {@link ChainPreferences}, the worker derives each chain's
 * {@link ChainSetting} with {@link chainSetting}.
 */
import { isLocalHost } from '../api/base-url';
import { KNOWN_CHAINS } from './known-chains';
import type { ChainSetting } from './verifier';

/** What the user chose for one chain. */
export interface ChainPreference {
  /** Verification on for this chain (default off). */
  enabled: boolean;
  /** The user's JSON-RPC URL; absent: the chain's default. */
  rpcUrl?: string;
  /** Confirmations at which a leg is final; absent: the chain's default. */
  finalityDepth?: number;
}

/** The preferences of every chain, keyed by chainId (decimal string, as JSON object keys are). */
export type ChainPreferences = Readonly<Record<string, ChainPreference>>;

/** A JSON-RPC URL accepted: the URL as typed (trimmed), its origin and the host-permission pattern for it. */
export type RpcUrlResult = { ok: true; url: string; origin: string; permissionPattern: string } | { ok: false; reason: RpcUrlProblem };

/** Why an RPC URL is refused (the options page says it in words). */
export type RpcUrlProblem = 'invalid' | 'not-https' | 'credentials';

/**
 * Checks an RPC URL; never throws. https is required, except on this machine (localhost, 127.0.0.1, [::1], e.g. a
 * local anvil). A path and a query are kept (providers put the project key there); `user:password@` is refused.
 */
export function parseRpcUrl(input: string): RpcUrlResult {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLocalHost(url.hostname))) return { ok: false, reason: 'not-https' };
  if (url.username || url.password) return { ok: false, reason: 'credentials' };
  return { ok: true, url: url.href, origin: url.origin, permissionPattern: `${url.protocol}//${url.hostname}/*` };
}

/** Highest finality depth accepted (about a day of Ethereum blocks). */
const MAX_DEPTH = 10_000;

/**
 * The setting the verifier uses for `chainId`, or undefined when verification is off for it, it has no RPC URL
 * (an unknown chain without the user's own) or the URL is not acceptable.
 */
export function chainSetting(chainId: number, preferences: ChainPreferences): ChainSetting | undefined {
  const pref = preferences[String(chainId)];
  if (!pref?.enabled) return undefined;
  const known = KNOWN_CHAINS[chainId];
  const parsed = parseRpcUrl(pref.rpcUrl ?? known?.rpcUrl ?? '');
  if (!parsed.ok) return undefined;
  const depth = pref.finalityDepth;
  const finalityDepth = Number.isInteger(depth) && depth! >= 1 && depth! <= MAX_DEPTH ? depth! : (known?.finalityDepth ?? 64);
  return { rpcUrl: parsed.url, finalityDepth };
}

/**
 * Reads stored preferences, keeping only well-formed entries (a chainId key, `enabled` a boolean, `rpcUrl` a string,
 * `finalityDepth` a number): a damaged entry turns that chain off rather than failing the worker.
 */
export function readChainPreferences(raw: unknown): ChainPreferences {
  if (typeof raw !== 'object' || raw === null) return {};
  const out: Record<string, ChainPreference> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!/^[1-9][0-9]{0,15}$/.test(key) || typeof value !== 'object' || value === null) continue;
    const v = value as Record<string, unknown>;
    if (typeof v.enabled !== 'boolean') continue;
    out[key] = {
      enabled: v.enabled,
      ...(typeof v.rpcUrl === 'string' ? { rpcUrl: v.rpcUrl } : {}),
      ...(typeof v.finalityDepth === 'number' ? { finalityDepth: v.finalityDepth } : {}),
    };
  }
  return out;
}

/** Why the preferences as typed cannot be saved: a chain's RPC URL, or its finality depth (not 1…10,000). */
export interface ChainPreferenceProblem {
  chainId: number;
  reason: RpcUrlProblem | 'depth';
}

/**
 * Checks the preferences of every chain turned on (the options and welcome pages, before saving): the first problem
 * found, or the host-permission patterns of their RPC origins, once each, for the browser's prompt. A chain turned
 * off is not checked (what it holds is kept for when it is turned on again).
 */
export function checkChainPreferences(
  preferences: ChainPreferences,
): { ok: true; patterns: string[] } | { ok: false; problem: ChainPreferenceProblem } {
  const patterns = new Set<string>();
  for (const [key, pref] of Object.entries(preferences)) {
    if (!pref.enabled) continue;
    const chainId = Number(key);
    const parsed = parseRpcUrl(pref.rpcUrl ?? KNOWN_CHAINS[chainId]?.rpcUrl ?? '');
    if (!parsed.ok) return { ok: false, problem: { chainId, reason: parsed.reason } };
    const depth = pref.finalityDepth;
    if (depth !== undefined && !(Number.isInteger(depth) && depth >= 1 && depth <= MAX_DEPTH))
      return { ok: false, problem: { chainId, reason: 'depth' } };
    patterns.add(parsed.permissionPattern);
  }
  return { ok: true, patterns: [...patterns] };
}
