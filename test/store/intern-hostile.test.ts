/**
 * Hostile inputs for the string interning of the tracker's mirror (lib/store/intern.ts: "Nothing observable changes:
 * every value stays equal to what it was"; bounded table) and for `Tracker.get` (one record, as the tracker holds it).
 * Written by a tester who did not write the code.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { compactRecord, StringInterner } from '@/lib/store/intern';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { EventClock, RecordingNotifier } from '../tracker/fakes';

const hex = (i: number, width = 64) => `0x${i.toString(16).padStart(width, '0')}`;

/** A record as JSON brings it, with `symbol` as its token's symbol. */
function record(i: number, symbol: string): TrackedIntent {
  return JSON.parse(
    JSON.stringify({
      intentId: hex(i),
      addedAt: 1_800_000_000_000 + i,
      receipt: { intentId: hex(i), status: 'EXECUTING', summary: { originTokenMetadata: { symbol, name: `${symbol} token` } } },
      status: 'EXECUTING',
      lastStates: ['SUCCEEDED', 'PENDING', 'UNKNOWN'],
      phase: 'tracking',
      notification: 'none',
    }),
  ) as TrackedIntent;
}

describe('StringInterner against hostile input', () => {
  it('10,000 records each with distinct strings: the table stays within its cap and every value stays equal', () => {
    const strings = new StringInterner();
    const records: TrackedIntent[] = [];
    for (let i = 0; i < 10_000; i++) {
      records.push(compactRecord(record(i, `TOK${i}`), strings));
      expect(strings.size).toBeLessThanOrEqual(strings.cap);
    }
    for (let i = 0; i < 10_000; i++) expect(records[i]).toEqual(record(i, `TOK${i}`));
  });

  it('a cyclic object (a receipt pointing at itself) is walked to a bounded depth, not for ever', () => {
    const r = record(1, 'USDC') as TrackedIntent & { receipt: Record<string, unknown> };
    r.receipt.self = r.receipt;
    r.receipt.parent = r;
    expect(() => compactRecord(r, new StringInterner())).not.toThrow();
    expect(r.receipt.status).toBe('EXECUTING');
  });

  it('JSON keys named __proto__ and constructor are left as they are, and no prototype is touched', () => {
    const raw = JSON.parse('{"intentId":"x","__proto__":"USDC","constructor":"USDC","nested":{"__proto__":{"polluted":"yes"}}}');
    const out = new StringInterner().deep(raw);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe('USDC');
    expect(out.constructor).toBe('USDC');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('a string mutated after interning: strings are values, the other records holding the same string keep theirs', () => {
    const strings = new StringInterner();
    const a = compactRecord(record(1, 'USDC'), strings);
    const b = compactRecord(record(2, 'USDC'), strings);
    (a.receipt as unknown as { summary: { originTokenMetadata: { symbol: string } } }).summary.originTokenMetadata.symbol = 'EVIL';
    expect((b.receipt as unknown as { summary: { originTokenMetadata: { symbol: string } } }).summary.originTokenMetadata.symbol).toBe(
      'USDC',
    );
    // And later records still get the right value.
    const c = compactRecord(record(3, 'USDC'), strings);
    expect((c.receipt as unknown as { summary: { originTokenMetadata: { symbol: string } } }).summary.originTokenMetadata.symbol).toBe(
      'USDC',
    );
  });
});

/** A store whose list() refuses while `refusing` (IndexedDB refusing reads). */
class UnreadableStore extends MemoryStore {
  refusing = true;
  override async list() {
    if (this.refusing) throw new DOMException('refused', 'UnknownError');
    return super.list();
  }
}

describe('Tracker.get against hostile schedules', () => {
  const id = hex(5);
  const tracker = (store: MemoryStore) =>
    new Tracker({
      store,
      stateStore: new MemoryStateStore(),
      clock: new EventClock(),
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
    });

  it('an intent stored by an earlier worker, asked before this engine was resumed: loaded, not undefined', async () => {
    const store = new MemoryStore();
    await store.update(id, () => record(5, 'USDC'));
    const t = tracker(store);
    expect((await t.get(id))?.intentId).toBe(id);
    t.stop();
  });

  it('while the store refuses reads it rejects (no undefined that says "not tracked"), and answers once the store reads again', async () => {
    const store = new UnreadableStore();
    store.refusing = false;
    await store.update(id, () => record(5, 'USDC'));
    store.refusing = true;
    const t = tracker(store);
    await expect(t.get(id)).rejects.toThrow();
    store.refusing = false;
    expect((await t.get(id))?.intentId).toBe(id);
    t.stop();
  });

  it('a removed intent is undefined at once, even while the store deletion is still in flight', async () => {
    const store = new MemoryStore();
    await store.update(id, () => record(5, 'USDC'));
    const t = tracker(store);
    await t.resume();
    const removing = t.remove(id);
    expect(await t.get(id)).toBeUndefined();
    await removing;
    expect(await t.get(id)).toBeUndefined();
    t.stop();
  });
});
