/**
 * Hostile tests of the verdict writes (lib/worker/chain-writer.ts) and the tellings' turn: a removal while a write is
 * under way, then the intent tracked again; a refused write; many writes asked at once. Written by a tester who did not
 * write the code.
 */
import { describe, expect, it } from 'vitest';
import type { ChainVerdict } from '@/lib/store';
import { chainVerdictKey } from '@/lib/store/chain';
import type { LocalArea } from '@/lib/worker/chain-stores';
import { createVerdictWriter } from '@/lib/worker/chain-writer';

const ID = `0x${'9'.repeat(64)}`;
const verdict = (text: string): ChainVerdict => ({
  intentId: ID,
  serviceStatus: 'SUCCEEDED',
  verified: true,
  settled: true,
  legs: [{ leg: 'destination', chainId: 8453, kind: 'final', text }],
});

/** storage.local whose `set`s wait until the test releases them, in order; `remove` at once (as the wiring's forget). */
function heldArea() {
  const data: Record<string, unknown> = {};
  const held: Array<() => void> = [];
  let sets = 0;
  const area = {
    get: async () => ({ ...data }),
    set: (items: Record<string, unknown>) => {
      sets++;
      return new Promise<void>((resolve) =>
        held.push(() => {
          Object.assign(data, items);
          resolve();
        }),
      );
    },
    remove: async (key: string) => {
      delete data[key];
    },
  } as unknown as LocalArea & { remove(key: string): Promise<void> };
  const turns = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
  };
  return { area, data, held, sets: () => sets, turns };
}

describe('the verdict writer against hostile timing', () => {
  it('removed while its write is under way, then tracked again: the same verdict is written again (not taken as stored)', async () => {
    const h = heldArea();
    const gens = new Map<string, number>([[ID, 1]]);
    const writer = createVerdictWriter(h.area, (id, gen) => (gens.get(id) ?? 0) === gen);
    const first = writer.write(ID, 1, verdict('Final on Base'));
    await h.turns();
    expect(h.held).toHaveLength(1);
    // The user removes the intent: the wiring bumps its generation, forgets the writer's memory, removes the key.
    gens.set(ID, 2);
    writer.forget(ID);
    await (h.area as unknown as { remove(key: string): Promise<void> }).remove(chainVerdictKey(ID));
    // The write asked before the removal lands after it (storage keeps the order it was asked in: the set came first).
    h.held.shift()?.();
    await first;
    // storage.local applies them in the order asked: the set, then the removal (the fake applied the set last).
    delete h.data[chainVerdictKey(ID)];
    // Tracked again (undo): a new check, the same receipt, the same verdict.
    gens.set(ID, 3);
    const again = writer.write(ID, 3, verdict('Final on Base'));
    await h.turns();
    h.held.shift()?.();
    await again;
    // The popup must find the verdict: storage has it.
    expect(h.data[chainVerdictKey(ID)]).toEqual(verdict('Final on Base'));
  });

  it('after a removal, `written` is not the removed verdict even when its write lands late', async () => {
    const h = heldArea();
    const writer = createVerdictWriter(h.area, () => true);
    const first = writer.write(ID, 1, verdict('Final on Base'));
    await h.turns();
    writer.forget(ID);
    h.held.shift()?.();
    await first;
    // What a new check starts from (`known`): not the forgotten intent's verdict (its final legs would be taken as read).
    expect(writer.written(ID)).toBeUndefined();
  });

  it('a hundred writes asked at once while one is under way: two writes in all, the newest last', async () => {
    const h = heldArea();
    const writer = createVerdictWriter(h.area, () => true);
    const all = [writer.write(ID, 1, verdict('0'))];
    await h.turns();
    for (let i = 1; i <= 100; i++) all.push(writer.write(ID, 1, verdict(`${i}`)));
    for (let i = 0; i < 3; i++) {
      h.held.shift()?.();
      await h.turns();
    }
    await Promise.all(all);
    expect(h.sets()).toBe(2);
    expect((h.data[chainVerdictKey(ID)] as ChainVerdict).legs[0]?.text).toBe('100');
  });
});
