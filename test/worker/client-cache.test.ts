/** The worker's client follows the saved settings. */
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSettingsStore } from '@/lib/store';
import { createClientCache } from '@/lib/worker/client-cache';
import { peakConcurrency, startSimulator } from '../../simulator/server';

describe('createClientCache', () => {
  beforeEach(() => {
    globalThis.indexedDB = new IDBFactory();
  });

  it('has no client until both URL and key are saved, or when the URL is unusable', async () => {
    const settings = createSettingsStore();
    const clients = createClientCache(settings);
    expect(await clients.current('user')).toBeUndefined();
    await settings.set({ baseUrl: 'https://svc.example', accessKey: '' });
    expect(await clients.current('user')).toBeUndefined();
    await settings.set({ baseUrl: 'not a url', accessKey: 'k' });
    expect(await clients.current('user')).toBeUndefined();
  });

  it('keeps one client per URL and key, builds a new one when they change, and after reset', async () => {
    const settings = createSettingsStore();
    const clients = createClientCache(settings);
    await settings.set({ baseUrl: 'https://svc.example/', accessKey: 'k1' });
    const first = await clients.current('user');
    expect(first?.baseUrl).toBe('https://svc.example');
    expect(await clients.current('user')).toBe(first);
    await settings.set({ baseUrl: 'https://svc.example/', accessKey: 'k2' });
    const second = await clients.current('user');
    expect(second).not.toBe(first);
    clients.reset();
    expect(await clients.current('user')).not.toBe(second);
  });
});

describe('the worker’s requests', () => {
  beforeEach(() => {
    globalThis.indexedDB = new IDBFactory();
  });

  it('are at most 4 in flight at once and one more of the user’s; the others wait their turn, and one aborted meanwhile is not sent', async () => {
    // Long-polls held 1.5 s: long enough that the five places are all held at once even when a loaded machine (npm
    // test's e2e beside it) answers the first round slowly — with 300 ms, the held ones could end before the last
    // started (seen once: a peak of 4).
    const sim = await startSimulator({ dataset: false, waitTimeoutMs: 1_500 });
    try {
      const settings = createSettingsStore();
      await settings.set({ baseUrl: sim.url, accessKey: sim.accessKey });
      const clients = createClientCache(settings);
      const client = (await clients.current('user'))!;
      const ids = Array.from({ length: 6 }, () => sim.createIntent('success', 60_000));
      // Six long-polls the server holds (1.5 s), and a GetIntent beside them.
      const waits = ids.map(async (intentId) => {
        const { receiptStates } = await client.waitIntentReceipt({ intentId, lastReceiptStates: [] });
        return client.waitIntentReceipt({ intentId, lastReceiptStates: receiptStates ?? [] });
      });
      const lookUp = client.getIntent({ intentId: ids[0]! });
      const aborted = new AbortController();
      const never = client.getIntentReceipt({ intentId: ids[1]! }, { signal: aborted.signal }).then(
        () => 'sent',
        (err: { kind?: string }) => err.kind,
      );
      aborted.abort();
      await Promise.all([...waits, lookUp]);
      expect(await never).toBe('aborted');
      const log = sim.requests();
      expect(log.filter((r) => r.operation === 'WaitIntentReceipt')).toHaveLength(12);
      expect(log.filter((r) => r.operation === 'GetIntentReceipt')).toHaveLength(0);
      // All the user's here: the 4 places and the one kept for the user's own (lib/api/budget-limits.ts USER_PLACES).
      expect(peakConcurrency(log)).toBe(5);
    } finally {
      await sim.close();
    }
  });
});
