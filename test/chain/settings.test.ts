import { describe, expect, it } from 'vitest';
import { chainSetting, parseRpcUrl, readChainPreferences } from '@/lib/chain/settings';

describe('RPC URLs', () => {
  it('accepts https with a path and a query (a provider’s key), and http on this machine only', () => {
    expect(parseRpcUrl(' https://base-mainnet.example.org/v2/KEY?x=1 ')).toEqual({
      ok: true,
      url: 'https://base-mainnet.example.org/v2/KEY?x=1',
      origin: 'https://base-mainnet.example.org',
      permissionPattern: 'https://base-mainnet.example.org/*',
    });
    expect(parseRpcUrl('http://127.0.0.1:8545')).toMatchObject({ ok: true, permissionPattern: 'http://127.0.0.1/*' });
    expect(parseRpcUrl('http://rpc.example.org')).toEqual({ ok: false, reason: 'not-https' });
    expect(parseRpcUrl('wss://rpc.example.org')).toEqual({ ok: false, reason: 'not-https' });
    expect(parseRpcUrl('https://user:pw@rpc.example.org')).toEqual({ ok: false, reason: 'credentials' });
    expect(parseRpcUrl('not a url')).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('chainSetting', () => {
  it('is off until the user turns the chain on', () => {
    expect(chainSetting(8453, {})).toBeUndefined();
    expect(chainSetting(8453, { 8453: { enabled: false } })).toBeUndefined();
  });
  it('uses the chain’s public RPC URL and finality depth by default', () => {
    expect(chainSetting(8453, { 8453: { enabled: true } })).toEqual({ rpcUrl: 'https://mainnet.base.org/', finalityDepth: 60 });
  });
  it('uses the user’s own URL and depth; a depth out of range falls back to the chain’s', () => {
    expect(chainSetting(42161, { 42161: { enabled: true, rpcUrl: 'http://localhost:8545', finalityDepth: 5 } })).toEqual({
      rpcUrl: 'http://localhost:8545/',
      finalityDepth: 5,
    });
    expect(chainSetting(42161, { 42161: { enabled: true, finalityDepth: 0 } })?.finalityDepth).toBe(480);
  });
  it('an unknown chain needs the user’s URL; a refused URL turns the chain off', () => {
    expect(chainSetting(31337, { 31337: { enabled: true } })).toBeUndefined();
    expect(chainSetting(31337, { 31337: { enabled: true, rpcUrl: 'https://rpc.example.org' } })).toEqual({
      rpcUrl: 'https://rpc.example.org/',
      finalityDepth: 64,
    });
    expect(chainSetting(8453, { 8453: { enabled: true, rpcUrl: 'http://rpc.example.org' } })).toBeUndefined();
  });
  it('reads stored preferences, dropping damaged entries', () => {
    expect(readChainPreferences({ 8453: { enabled: true, rpcUrl: 7 }, abc: { enabled: true }, 10: { enabled: 'yes' }, 1: null })).toEqual({
      8453: { enabled: true },
    });
    expect(readChainPreferences('garbage')).toEqual({});
  });
});
