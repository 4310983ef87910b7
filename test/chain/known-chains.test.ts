import * as viemChains from 'viem/chains';
import { describe, expect, it } from 'vitest';
import { KNOWN_CHAINS } from '@/lib/chain/known-chains';

/** Display names that stay the service's own, where viem's differ. */
const NAME_EXCEPTIONS: Record<number, string> = { 10: 'OP Mainnet', 56: 'BNB Smart Chain' };

/** viem's export of each known chain (several exports may share an id, e.g. a pre-confirmation RPC variant). */
const VIEM: Record<number, viemChains.Chain> = {
  1: viemChains.mainnet,
  10: viemChains.optimism,
  56: viemChains.bsc,
  100: viemChains.gnosis,
  137: viemChains.polygon,
  146: viemChains.sonic,
  8453: viemChains.base,
  42161: viemChains.arbitrum,
  42170: viemChains.arbitrumNova,
  43114: viemChains.avalanche,
  80094: viemChains.berachain,
};

describe('the known chains are viem’s', () => {
  for (const [idText, known] of Object.entries(KNOWN_CHAINS)) {
    const id = Number(idText);
    it(`chain ${id} (${known.name}): name, explorer, default RPC URL and block time as in viem/chains`, () => {
      const chain = VIEM[id];
      expect(chain?.id, `no viem chain named for ${id}`).toBe(id);
      expect(NAME_EXCEPTIONS[id] ?? known.name).toBe(chain!.name);
      expect(known.explorer).toBe(chain!.blockExplorers?.default.url);
      expect(known.rpcUrl).toBe(chain!.rpcUrls.default.http[0]);
      if (chain!.blockTime !== undefined) expect(known.blockTimeMs).toBe(chain!.blockTime);
      expect(known.explorer.startsWith('https://') && known.rpcUrl.startsWith('https://')).toBe(true);
      expect(Number.isInteger(known.finalityDepth) && known.finalityDepth >= 1).toBe(true);
    });
  }
});
