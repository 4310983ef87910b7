/**
 * Issue 27, symptoms 5 and 10 through the worker's own wiring (`createBackground`): Test connection of an unsaved URL
 * neither moves the saved service's clock (its server 20 minutes ahead) nor pauses the tracker (its 429 with
 * `Retry-After: 3600`). Both failed when every client's answers fed one clock and every 429 held the whole worker.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createBackground } from '@/lib/background';
import { realPlatform } from '@/lib/platform';
import { createServiceOffsetStore } from '@/lib/store';

const SAVED = 'https://saved.svc.example';
const OTHER = 'https://other.svc.example';
const NOT_FOUND = '{"error":"NotFound","code":8000,"msg":"no","status":400}';

describe('Test connection of an unsaved URL (createBackground)', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    globalThis.indexedDB = new IDBFactory();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('does not move the service clock with another server’s Date header', async () => {
    const ahead = new Date(Date.now() + 20 * 60_000).toUTCString();
    vi.stubGlobal('fetch', async () => new Response(NOT_FOUND, { status: 400, headers: { Date: ahead } }));
    const bg = createBackground(realPlatform(fakeBrowser as never));
    try {
      await bg.settings.set({ baseUrl: SAVED, accessKey: 'saved-key' });
      const reply = await bg.handleMessage({ type: 'test-connection', baseUrl: OTHER, accessKey: 'other-key' });
      expect(reply).toMatchObject({ ok: true, data: { kind: 'ok' } });
      // Give a publication of the offset its time: none is due.
      await new Promise((r) => setTimeout(r, 50));
      expect(Math.abs(await createServiceOffsetStore().get())).toBeLessThan(60_000);
    } finally {
      bg.tracker.stop();
    }
  });

  it('a 429 with Retry-After: 3600 to it does not pause the saved service’s tracking', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response('{"error":"RateLimited","code":1007,"msg":"slow down","status":429}', {
          status: 429,
          headers: { 'Retry-After': '3600' },
        }),
    );
    const bg = createBackground(realPlatform(fakeBrowser as never));
    try {
      await bg.settings.set({ baseUrl: SAVED, accessKey: 'saved-key' });
      await bg.handleMessage({ type: 'test-connection', baseUrl: OTHER, accessKey: 'other-key' });
      await new Promise((r) => setTimeout(r, 50));
      expect(bg.tracker.state.pausedUntil).toBeUndefined();
    } finally {
      bg.tracker.stop();
    }
  });
});
