/**
 * Run by test/store/mirror-strings.test.ts in its own Node process (a small heap to read): tracks `N` intents in an
 * IntentMirror over a store that hands back a new copy on each write (as IndexedDB's structured clone: every string its
 * own copy), writes each record three more times, then prints, as JSON, how many string instances of each intentId and of
 * each transaction hash the process's heap holds (`v8.writeHeapSnapshot`), the mirror alive.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import type { IntentStore, TrackedIntent } from '../../../lib/store';
import { IntentMirror } from '../../../lib/tracker/mirror';

const N = 20;
/** A 64-hex value no module holds: `tag` keeps ids and hashes apart. */
const hex = (tag: string, i: number) => `0x${tag}${String(i).padStart(64 - tag.length, '0')}`;

/**
 * A store that keeps each record as JSON text under its id reversed (so that it holds no string instance of an id or a
 * hash itself) and hands back a new parse on each read and write, as IndexedDB's structured clone gives new copies.
 */
class TextStore implements IntentStore {
  readonly #rows = new Map<string, string>();
  #key = (id: string) => [...id].reverse().join('');
  #read = (id: string) => {
    const text = this.#rows.get(this.#key(id));
    return text === undefined ? undefined : (JSON.parse(text) as TrackedIntent);
  };
  async get(id: string) {
    return this.#read(id);
  }
  async list() {
    return [...this.#rows.values()].map((text) => JSON.parse(text) as TrackedIntent);
  }
  async put(t: TrackedIntent) {
    this.#rows.set(this.#key(t.intentId), JSON.stringify(t));
  }
  async update(id: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) {
    const next = fn(this.#read(id));
    if (next) this.#rows.set(this.#key(id), JSON.stringify(next));
    return this.#read(id);
  }
  async updateMany(ids: readonly string[], fn: (id: string, c: TrackedIntent | undefined) => TrackedIntent | undefined) {
    return Promise.all(ids.map((id) => this.update(id, (c) => fn(id, c))));
  }
  async remove(id: string) {
    this.#rows.delete(this.#key(id));
  }
}

/** The record of intent `i` at write `w`, its receipt with three legs (the deposit's and origin's one transaction) and a summary, each naming the intentId. */
const record = (i: number, w: number): TrackedIntent => {
  const intentId = hex('ab', i);
  const leg = (txnHash: string) => ({ intentId, chainId: 8453, txnHash, status: 'SUCCEEDED' });
  return {
    intentId,
    addedAt: i,
    status: 'SUCCEEDED',
    lastStates: ['SUCCEEDED'],
    phase: w === 3 ? 'final' : 'waiting',
    receipt: {
      intentId,
      status: 'SUCCEEDED',
      depositTransaction: leg(hex('cd', i)),
      originTransaction: leg(hex('cd', i)),
      destinationTransaction: leg(hex('ef', i)),
      summary: { intentId, status: 'SUCCEEDED' },
    },
  } as unknown as TrackedIntent;
};

const mirror = new IntentMirror(new TextStore());
await mirror.load();
for (let w = 0; w < 4; w++) for (let i = 0; i < N; i++) await mirror.write(hex('ab', i), () => record(i, w));

const file = join(tmpdir(), `mirror-strings-${process.pid}.heapsnapshot`);
writeHeapSnapshot(file);
const snap = JSON.parse(readFileSync(file, 'utf8'));
rmSync(file);
const { node_fields, node_types } = snap.snapshot.meta;
const F = node_fields.length;
const [t, name] = [node_fields.indexOf('type'), node_fields.indexOf('name')];
const copies: Record<string, number> = {};
for (let k = 0; k < snap.nodes.length; k += F) {
  if (node_types[0][snap.nodes[k + t]] !== 'string') continue;
  const v: string = snap.strings[snap.nodes[k + name]];
  if (/^0x(ab|cd|ef)0+\d+$/.test(v) && v.length === 66) copies[v] = (copies[v] ?? 0) + 1;
}
// The mirror must still be alive when the snapshot is taken.
process.stdout.write(JSON.stringify({ held: mirror.values().length, copies }));
