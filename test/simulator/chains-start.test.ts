/** ChainWorld.start stops the anvils it started when funding the user fails, and throws what failed. */
import { describe, expect, it, vi } from 'vitest';

const stops: string[] = [];
vi.mock('../../simulator/chain/anvil', async (original) => {
  const real = await original<typeof import('../../simulator/chain/anvil')>();
  const fake = (chainId: number) => ({
    anvil: { chainId, url: `http://127.0.0.1:0/${chainId}`, stop: async () => void stops.push(`anvil ${chainId}`) },
    token: { address: '0x0000000000000000000000000000000000000001' },
  });
  return {
    ...real,
    startChains: async (ids: number[]) => ids.map(fake),
    sendTransfer: async () => {
      throw new Error('funding refused');
    },
  };
});

describe('ChainWorld.start', () => {
  it('stops both anvils when the funding transfer fails, and rejects with its error', async () => {
    const { ChainWorld } = await import('../../simulator/chains');
    await expect(ChainWorld.start()).rejects.toThrow('funding refused');
    expect(stops.sort()).toEqual(['anvil 42161', 'anvil 8453']);
  });
});
