/**
 * The writes of an intent's verdict (lib/worker/chain-writer.ts): one write of a key at a time, the newest verdict
 * asked for last on storage, never an older one over it, nothing of a check overtaken, a refused write made again.
 */
import { describe, expect, it } from 'vitest';
import type { ChainVerdict } from '@/lib/store';
import type { LocalArea } from '@/lib/worker/chain-stores';
import { createVerdictWriter } from '@/lib/worker/chain-writer';

const verdict = (n: number): ChainVerdict => ({
  intentId: '0x1',
  verified: false,
  settled: false,
  legs: [{ leg: 'origin', chainId: 1, kind: 'confirmed', text: `${n}` }],
});

/** storage.local whose writes wait until released (or refused), counting how many of a key run at once. */
function heldArea() {
  const data: Record<string, unknown> = {};
  const pending: Array<{ ok: () => void; no: () => void }> = [];
  let running = 0;
  let most = 0;
  const writes: string[] = [];
  const area = {
    get: async () => ({}),
    set: (items: Record<string, unknown>) => {
      running++;
      most = Math.max(most, running);
      writes.push(((Object.values(items)[0] as ChainVerdict).legs[0]?.text ?? '') as string);
      return new Promise<void>((resolve, reject) =>
        pending.push({
          ok: () => {
            running--;
            Object.assign(data, items);
            resolve();
          },
          no: () => {
            running--;
            reject(new Error('QUOTA_BYTES quota exceeded'));
          },
        }),
      );
    },
  } as unknown as LocalArea;
  const flush = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
  };
  const next = async (ok = true) => {
    await flush();
    const p = pending.shift();
    if (ok) p?.ok();
    else p?.no();
    await flush();
  };
  return { area, data, writes, most: () => most, next, flush };
}

describe('the writes of a verdict', () => {
  it('go one at a time, the newest asked for written last, an older one waiting dropped', async () => {
    const h = heldArea();
    const w = createVerdictWriter(h.area, () => true);
    const done = [w.write('0x1', 1, verdict(1))];
    await h.flush();
    // Asked while the first is under way: only the newest is written after it.
    done.push(w.write('0x1', 1, verdict(2)), w.write('0x1', 1, verdict(3)));
    await h.next();
    await h.next();
    await Promise.all(done);
    expect(h.writes).toEqual(['1', '3']);
    expect(h.most()).toBe(1);
    expect((h.data['chainVerdict:0x1'] as ChainVerdict).legs[0]?.text).toBe('3');
    expect(w.written('0x1')?.legs[0]?.text).toBe('3');
    // Unchanged: not written again.
    await w.write('0x1', 1, verdict(3));
    expect(h.writes).toEqual(['1', '3']);
  });

  it('writes nothing of a check no longer current', async () => {
    const h = heldArea();
    let current = 1;
    const w = createVerdictWriter(h.area, (_id, gen) => gen === current);
    const first = w.write('0x1', 1, verdict(1));
    await h.flush();
    // Asked while the first is under way, then overtaken by a newer check (which writes its own).
    const stale = w.write('0x1', 1, verdict(2));
    current = 2;
    await h.next();
    await Promise.all([first, stale]);
    expect(h.writes).toEqual(['1']);
  });

  it('writes again, at the next write, a verdict whose write was refused', async () => {
    const h = heldArea();
    const w = createVerdictWriter(h.area, () => true);
    const refused = w.write('0x1', 1, verdict(1));
    await h.next(false);
    await refused;
    expect(w.written('0x1')).toBeUndefined();
    const again = w.write('0x1', 2, verdict(1));
    await h.next();
    await again;
    expect(h.writes).toEqual(['1', '1']);
    expect(w.written('0x1')).toEqual(verdict(1));
  });
});
