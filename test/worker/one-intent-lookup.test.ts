/**
 * The worker's per-intent look-ups (the ETA baseline's "still wanted?", the chain verifier's receipt change, the
 * notification pipeline's record) read one record from the tracker (`Tracker.get`), not a sorted copy of every tracked
 * intent: with a desk's 5,000 that copy, made once per change of each of them, was most of the worker's garbage.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { Platform } from '@/lib/platform';
import { createChainVerifierOnPlatform } from '@/lib/worker/chain-wiring';
import { createBaselineFinder } from '@/lib/worker/eta-baseline';
import { etaClient, memoryTracker } from './helpers';

const hex = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;
const IDS = [hex(1), hex(2), hex(3)];

beforeEach(() => fakeBrowser.reset());

describe('one intent looked up by its id', () => {
  it('Tracker.get gives the record the list holds, and undefined for an intent not tracked', async () => {
    const { tracker } = memoryTracker();
    for (const id of IDS) await tracker.track(id);
    const listed = (await tracker.list()).find((t) => t.intentId === IDS[1]);
    expect(await tracker.get(IDS[1]!)).toEqual(listed);
    expect(await tracker.get(hex(99))).toBeUndefined();
    tracker.stop();
  });

  it('the ETA baseline finder asks the tracker for each intent, never for the whole list', async () => {
    const { tracker } = memoryTracker();
    for (const id of IDS) await tracker.track(id);
    const list = vi.spyOn(tracker, 'list');
    const { client, asked } = etaClient((intentId) => ({ intent: { intentId, quote: { estimatedDuration: 60 } } }));
    const find = createBaselineFinder({ client: async () => client, tracker });
    for (const id of IDS) await find(id);
    expect(asked).toEqual(['GetIntent', 'GetIntent', 'GetIntent']);
    expect(list).not.toHaveBeenCalled();
    expect((await tracker.get(IDS[2]!))?.estimatedDuration).toBe(60);
    tracker.stop();
  });

  it('the chain verifier checks a changed receipt through `intent`, never reading every tracked intent', async () => {
    const receipt = IntentReceipt.parse({ intentId: IDS[0], status: 'EXECUTING' });
    const intents = vi.fn(async () => {
      throw new Error('the whole list was read for one intent');
    });
    const p: Pick<Platform, 'fetch' | 'clock' | 'timers' | 'browser'> = {
      fetch: async () => {
        throw new Error('no chain is on: nothing is sent');
      },
      clock: { now: () => 0, monotonic: () => 0, sleep: async () => {} },
      timers: { setTimeout: () => 0, clearTimeout: () => {} },
      browser: fakeBrowser as unknown as Platform['browser'],
    };
    const verifier = createChainVerifierOnPlatform(p, {
      notify: async () => {},
      hasPermission: async () => false,
      intents,
      intent: async (id) => (id === IDS[0] ? { intentId: id, receipt } : undefined),
    });
    await verifier.changed(IDS[0]!);
    expect(verifier.last(IDS[0]!)).toMatchObject({ intentId: IDS[0], legs: [] });
    expect(intents).not.toHaveBeenCalled();
  });
});
