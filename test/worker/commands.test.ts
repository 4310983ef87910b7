/**
 * The keyboard commands in the worker: "track the intent ID on the clipboard" against the simulator over HTTP (a
 * copied intentId, a copied transaction hash, nothing usable, no permission, an unreadable clipboard), and the
 * offscreen reader's messaging (fakeBrowser delivers the worker's message to a stand-in offscreen page).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { SvcClient } from '@/lib/api/client';
import { COMMAND_TRACK_CLIPBOARD, OFFSCREEN_READ_CLIPBOARD } from '@/lib/commands';
import { createOffscreenClipboardReader } from '@/lib/worker/clipboard';
import { CLIPBOARD_COMMAND_TEXT, createCommandHandler } from '@/lib/worker/commands';
import { createSelectionLookup } from '@/lib/worker/selection';
import { createTrackIntent } from '@/lib/worker/track';
import { intentWithDestinationHash } from '../../simulator/find';
import { type Simulator, startSimulator } from '../../simulator/server';
import { memoryTracker } from './helpers';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

/** The command handler over the real selection look-up and a real tracker; `clipboard` is what a read returns. */
function setUp(clipboard: () => Promise<string>, allowed = true) {
  const { tracker } = memoryTracker();
  const told: string[] = [];
  const client = new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey });
  let reads = 0;
  const selection = createSelectionLookup({
    client: async () => client,
    track: createTrackIntent(tracker),
    inform: async (m) => told.push(m),
    openReceipt: async () => undefined,
  });
  const run = createCommandHandler({
    canReadClipboard: async () => allowed,
    readClipboard: () => {
      reads++;
      return clipboard();
    },
    trackSelection: selection.trackSelection,
    inform: async (m) => told.push(m),
  });
  return { run, tracker, told, reads: () => reads };
}

describe('the clipboard command', () => {
  it('tracks the intentId copied with text around it, and says so', async () => {
    const intentId = sim.createIntent('success', 60_000);
    const t = setUp(async () => `please look at ${intentId} thanks`);
    expect(await t.run(COMMAND_TRACK_CLIPBOARD)).toMatchObject({ ok: true, added: true });
    expect((await t.tracker.list()).map((i) => i.intentId)).toEqual([intentId]);
    expect(t.told).toEqual([`Tracking intent ${intentId.slice(0, 6)}…${intentId.slice(-4)}.`]);
    t.tracker.stop();
  });

  it('tracks the intent of a copied transaction hash', async () => {
    const { intentId, hash } = intentWithDestinationHash(sim);
    const t = setUp(async () => hash);
    expect(await t.run(COMMAND_TRACK_CLIPBOARD)).toMatchObject({ ok: true, intentId });
    expect((await t.tracker.list()).map((i) => i.intentId)).toEqual([intentId]);
    t.tracker.stop();
  });

  it('says plainly when the clipboard holds nothing to track, cannot be read, or may not be read', async () => {
    const empty = setUp(async () => 'lunch at noon?');
    expect(await empty.run(COMMAND_TRACK_CLIPBOARD)).toEqual({ ok: false, message: CLIPBOARD_COMMAND_TEXT.empty });
    expect(empty.told).toEqual([CLIPBOARD_COMMAND_TEXT.empty]);

    const broken = setUp(() => Promise.reject(new Error('Document is not focused.')));
    expect(await broken.run(COMMAND_TRACK_CLIPBOARD)).toMatchObject({ ok: false, message: CLIPBOARD_COMMAND_TEXT.unreadable });

    const refused = setUp(async () => `0x${'ab'.repeat(32)}`, false);
    expect(await refused.run(COMMAND_TRACK_CLIPBOARD)).toMatchObject({ ok: false, message: CLIPBOARD_COMMAND_TEXT.noPermission });
    expect(refused.reads()).toBe(0);
    for (const t of [empty, broken, refused]) expect(await t.tracker.list()).toEqual([]);
  });

  it('ignores other commands', async () => {
    const t = setUp(async () => `0x${'ab'.repeat(32)}`);
    expect(await t.run('_execute_action')).toBeUndefined();
    expect(t.reads()).toBe(0);
  });
});

describe('the offscreen clipboard reader (Chrome)', () => {
  beforeEach(() => fakeBrowser.reset());

  it('creates the document once, for the clipboard, and returns what it read', async () => {
    const created: Array<{ url: string; reasons: string[] }> = [];
    let open = false;
    const offscreen = {
      createDocument: async (p: { url: string; reasons: string[]; justification: string }) => {
        if (open) throw new Error('Only a single offscreen document may be created.');
        created.push(p);
        open = true;
        // The document's listener, as entrypoints/offscreen/main.ts registers it.
        fakeBrowser.runtime.onMessage.addListener((m: unknown, _sender: unknown, sendResponse: (text: string) => void) => {
          if ((m as { type?: string }).type !== OFFSCREEN_READ_CLIPBOARD) return undefined;
          sendResponse('copied 0x12');
          return true;
        });
      },
      hasDocument: async () => open,
    };
    const read = createOffscreenClipboardReader(fakeBrowser as never, offscreen);
    expect(await read()).toBe('copied 0x12');
    expect(await read()).toBe('copied 0x12');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ url: fakeBrowser.runtime.getURL('/offscreen.html'), reasons: ['CLIPBOARD'] });
  });

  it('rejects where the browser has no offscreen documents', async () => {
    await expect(createOffscreenClipboardReader(fakeBrowser as never, undefined)()).rejects.toThrow(/offscreen/);
  });
});
