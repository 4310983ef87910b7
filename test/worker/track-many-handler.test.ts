/**
 * An import, from a file this extension exported to the records the worker writes: fields kept, muted ones muted
 * before they are tracked, receipts that do not fit the schema dropped, intents tracked already left as they are.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import { exportCsv, exportJson } from '@/lib/format/export';
import { parseImport } from '@/lib/format/import';
import type { RequestOf } from '@/lib/messages';
import type { TrackedIntent } from '@/lib/store';
import { createTrackList } from '@/lib/worker/track-many';
import { createTrackManyHandler } from '@/lib/worker/track-many-handler';
import { memoryTracker } from './helpers';

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const AT = Date.UTC(2026, 10, 21, 9, 30);
const receipt = { intentId: hex(1), status: 'SUCCEEDED', originChainId: 1, destinationChainId: 10 } as IntentReceipt;
const ended: TrackedIntent = {
  intentId: hex(1),
  addedAt: AT,
  lastStates: [],
  phase: 'final',
  notification: 'shown',
  notifiedAt: AT + 60_000,
  status: 'SUCCEEDED',
  receipt,
};
const flying: TrackedIntent = {
  intentId: hex(2),
  addedAt: AT + 1_000,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
  status: 'EXECUTING',
};

/** The `track-many` request the popup sends for an imported file. */
function requestOf(file: string): RequestOf<'track-many'> {
  const parsed = parseImport(file);
  if (!parsed.ok) throw new Error(parsed.message);
  return { type: 'track-many', intents: parsed.intents.map((i) => ({ intentId: i.intentId, muted: i.muted, ...i.seed })) };
}

let stop: (() => void) | undefined;
afterEach(() => stop?.());

function setUp() {
  const { tracker, store } = memoryTracker(() => new Promise(() => {}));
  stop = () => tracker.stop();
  const log: string[] = [];
  const calm = {
    mute: async (intentId: string, muted: boolean) => {
      log.push(`mute ${intentId} ${muted} (tracked: ${store.map.has(intentId)})`);
    },
  };
  return { tracker, store, log, run: createTrackManyHandler({ trackList: createTrackList(tracker), tracker, calm }) };
}

describe('import', () => {
  it('moves a JSON export: every field kept, the ended one marked notified, the muted one muted before it is tracked', async () => {
    const { store, log, run } = setUp();
    const result = await run(requestOf(exportJson([ended, flying], AT, new Set([hex(2)]))));
    expect(result.added).toEqual([hex(1), hex(2)]);
    expect(store.map.get(hex(1))).toMatchObject({
      addedAt: AT,
      notifiedAt: AT + 60_000,
      status: 'SUCCEEDED',
      receipt,
      notification: 'shown',
      seen: true,
      phase: 'tracking',
      source: 'user',
    });
    expect(store.map.get(hex(2))).toMatchObject({ addedAt: AT + 1_000, status: 'EXECUTING', notification: 'none' });
    expect(log).toEqual([`mute ${hex(2)} true (tracked: false)`]);
  });

  it('moves a CSV export the same way (no receipt: the tracker reads it)', async () => {
    const { store, run } = setUp();
    await run(requestOf(exportCsv([ended, flying])));
    expect(store.map.get(hex(1))).toMatchObject({ addedAt: AT, notifiedAt: AT + 60_000, status: 'SUCCEEDED', notification: 'shown' });
    expect(store.map.get(hex(1))?.receipt).toBeUndefined();
  });

  it('drops a receipt that does not fit the schema, and leaves an intent tracked already (and its mute) as it is', async () => {
    const { tracker, store, log, run } = setUp();
    await tracker.track(hex(3));
    const result = await run({
      type: 'track-many',
      intents: [
        { intentId: hex(1), status: 'SUCCEEDED', receipt: { intentId: hex(1), status: 7 } },
        { intentId: hex(3), muted: true, status: 'SUCCEEDED', notifiedAt: AT },
      ],
    });
    expect(result.added).toEqual([hex(1)]);
    expect(result.already).toBe(1);
    expect(store.map.get(hex(1))?.receipt).toBeUndefined();
    expect(store.map.get(hex(1))?.notification).toBe('shown');
    expect(store.map.get(hex(3))?.notification).toBe('none');
    expect(store.map.get(hex(3))?.status).toBeUndefined();
    expect(log).toEqual([]);
  });
});
