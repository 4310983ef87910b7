/**
 * Chain names and block explorers (docs/protocol.md §10): a transaction link is `base + "/tx/" + hash`. A chain outside the table gets no link, never a guessed one.
 */
import { KNOWN_CHAINS } from '../chain/known-chains';
import { t } from '../i18n';

/** Known chains: display name and explorer base URL (https only), keyed by chainId (data: lib/chain/known-chains.ts, from viem/chains). */
export const CHAINS: Readonly<Record<number, { name: string; explorer: string }>> = KNOWN_CHAINS;

/** Display name of a chain, in the browser's language: its known name, "Chain <id>" otherwise, "Unknown chain" when absent. */
export function chainName(chainId: number | null | undefined): string {
  if (chainId === null || chainId === undefined) return t('chainUnknown');
  return CHAINS[chainId]?.name ?? t('chainNumbered', chainId);
}

/** A well-formed transaction hash: 0x and 64 hex digits. */
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/** True for a hash the service uses as a placeholder (ends in ten or more zeros; docs/protocol.md §4). */
export function isPlaceholderHash(hash: string): boolean {
  return /0{10,}$/.test(hash);
}

/**
 * Explorer link of a transaction, or undefined when the chain is not in the known table, the hash is not
 * 0x + 64 hex, or the hash is a placeholder.
 */
export function explorerTxUrl(chainId: number | null | undefined, hash: string | null | undefined): string | undefined {
  if (chainId === null || chainId === undefined || !hash) return undefined;
  const chain = CHAINS[chainId];
  if (!chain || !TX_HASH.test(hash) || isPlaceholderHash(hash)) return undefined;
  return `${chain.explorer}/tx/${hash}`;
}

/** True when `url` is a transaction link {@link explorerTxUrl} makes: a known chain's explorer, `/tx/`, a hash. */
export function isKnownExplorerTxUrl(url: string): boolean {
  const m = /^(https:\/\/[^/]+)\/tx\/(0x[0-9a-fA-F]{64})$/.exec(url);
  return m !== null && !isPlaceholderHash(m[2]!) && Object.values(CHAINS).some((c) => c.explorer === m[1]);
}

/** A well-formed address: 0x and 40 hex digits. */
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Explorer page of an address (`base + "/address/" + address`), under the same rule: known chains only. */
export function explorerAddressUrl(chainId: number | null | undefined, address: string | null | undefined): string | undefined {
  if (chainId === null || chainId === undefined || !address) return undefined;
  const chain = CHAINS[chainId];
  if (!chain || !ADDRESS.test(address)) return undefined;
  return `${chain.explorer}/address/${address}`;
}
