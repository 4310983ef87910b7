/**
 * The chains the extension knows by name: display name, block explorer, default public JSON-RPC URL, block time and
 * finality depth, keyed by chainId. Names, explorers, RPC URLs and block times are viem's (`viem/chains`), copied
 * here as plain data because importing viem's chain objects would bring their formatters and serializers into the
 * popup (about 15 KB gzip for three chains); test/chain/known-chains.test.ts fails when this table and viem's
 * disagree. Two display names stay the ones users know from the service's own pages ("Optimism" for viem's "OP
 * Mainnet", "BNB Chain" for "BNB Smart Chain"); the test names these exceptions.
 */

/** One known chain. */
export interface KnownChain {
  /** Display name (a proper name: not translated). */
  name: string;
  /** Explorer base URL, https, no trailing slash: a transaction page is `explorer + "/tx/" + hash`. */
  explorer: string;
  /** The chain's default public JSON-RPC URL (viem's `rpcUrls.default.http[0]`); the user may replace it. */
  rpcUrl: string;
  /** Typical time between blocks, in milliseconds (viem's `blockTime`; an estimate where viem has none). */
  blockTimeMs: number;
  /**
   * Confirmations (the including block counts as 1) after which a transaction is called final: a re-org that deep
   * is not expected on this chain. About two epochs on Ethereum, about two minutes of blocks on rollups whose
   * sequencer orders blocks, a few blocks on chains with single-slot finality. The user may change it per chain.
   */
  finalityDepth: number;
}

/** The known chains, keyed by chainId. */
export const KNOWN_CHAINS: Readonly<Record<number, KnownChain>> = {
  1: { name: 'Ethereum', explorer: 'https://etherscan.io', rpcUrl: 'https://ethereum.reth.rs/rpc', blockTimeMs: 12_000, finalityDepth: 64 },
  10: {
    name: 'Optimism',
    explorer: 'https://optimistic.etherscan.io',
    rpcUrl: 'https://mainnet.optimism.io',
    blockTimeMs: 2_000,
    finalityDepth: 60,
  },
  56: { name: 'BNB Chain', explorer: 'https://bscscan.com', rpcUrl: 'https://56.rpc.thirdweb.com', blockTimeMs: 750, finalityDepth: 20 },
  100: { name: 'Gnosis', explorer: 'https://gnosisscan.io', rpcUrl: 'https://rpc.gnosischain.com', blockTimeMs: 5_000, finalityDepth: 24 },
  137: { name: 'Polygon', explorer: 'https://polygonscan.com', rpcUrl: 'https://polygon.drpc.org', blockTimeMs: 2_000, finalityDepth: 128 },
  146: { name: 'Sonic', explorer: 'https://sonicscan.org', rpcUrl: 'https://rpc.soniclabs.com', blockTimeMs: 630, finalityDepth: 3 },
  8453: { name: 'Base', explorer: 'https://basescan.org', rpcUrl: 'https://mainnet.base.org', blockTimeMs: 2_000, finalityDepth: 60 },
  42161: {
    name: 'Arbitrum One',
    explorer: 'https://arbiscan.io',
    rpcUrl: 'https://arb1.arbitrum.io/rpc',
    blockTimeMs: 250,
    finalityDepth: 480,
  },
  42170: {
    name: 'Arbitrum Nova',
    explorer: 'https://nova.arbiscan.io',
    rpcUrl: 'https://nova.arbitrum.io/rpc',
    blockTimeMs: 250,
    finalityDepth: 480,
  },
  43114: {
    name: 'Avalanche',
    explorer: 'https://snowtrace.io',
    rpcUrl: 'https://api.avax.network/ext/bc/C/rpc',
    blockTimeMs: 1_700,
    finalityDepth: 3,
  },
  80094: { name: 'Berachain', explorer: 'https://berascan.com', rpcUrl: 'https://rpc.berachain.com', blockTimeMs: 2_000, finalityDepth: 3 },
};
