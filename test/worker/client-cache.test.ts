/** The worker's client follows the saved settings. */
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSettingsStore } from '@/lib/store';
import { createClientCache } from '@/lib/worker/client-cache';

describe('createClientCache', () => {
  beforeEach(() => {
    globalThis.indexedDB = new IDBFactory();
  });

  it('has no client until both URL and key are saved, or when the URL is unusable', async () => {
    const settings = createSettingsStore();
    const clients = createClientCache(settings);
    expect(await clients.current()).toBeUndefined();
    await settings.set({ baseUrl: 'https://svc.example', accessKey: '' });
    expect(await clients.current()).toBeUndefined();
    await settings.set({ baseUrl: 'not a url', accessKey: 'k' });
    expect(await clients.current()).toBeUndefined();
  });

  it('keeps one client per URL and key, builds a new one when they change, and after reset', async () => {
    const settings = createSettingsStore();
    const clients = createClientCache(settings);
    await settings.set({ baseUrl: 'https://svc.example/', accessKey: 'k1' });
    const first = await clients.current();
    expect(first?.baseUrl).toBe('https://svc.example');
    expect(await clients.current()).toBe(first);
    await settings.set({ baseUrl: 'https://svc.example/', accessKey: 'k2' });
    const second = await clients.current();
    expect(second).not.toBe(first);
    clients.reset();
    expect(await clients.current()).not.toBe(second);
  });
});
