/** How the popup reads the tracked list: first screenful then all, a change read alone, reads in order. */
import { describe, expect, it } from 'vitest';
import { FIRST_SCREEN_ROWS } from '@/lib/query/tracked-page';
import { createTrackedReader, type TrackedSource, type TrackedView } from '@/lib/query/tracked-reader';
import type { TrackedIntent } from '@/lib/store';

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const intent = (n: number, over: Partial<TrackedIntent> = {}): TrackedIntent => ({
  intentId: hex(n),
  addedAt: n,
  lastStates: [],
  phase: 'final',
  status: 'SUCCEEDED',
  notification: 'shown',
  ...over,
});

/** A worker holding `held` (newest first) whose answers are released by hand, recording every request. */
function worker(held: TrackedIntent[]) {
  const asked: Array<{ first?: number; intentIds?: string[] }> = [];
  const waiting: Array<() => void> = [];
  let answering = true;
  const source: TrackedSource = {
    ask(request) {
      asked.push(request);
      return new Promise((resolve) =>
        waiting.push(() => {
          if (!answering) return resolve(undefined);
          const intents = request.intentIds
            ? held.filter((t) => request.intentIds!.includes(t.intentId))
            : held.slice(0, request.first ?? held.length);
          resolve({ intents, total: held.length });
        }),
      );
    },
    readStore: async () => [intent(99)],
  };
  return {
    source,
    asked,
    set held(list: TrackedIntent[]) {
      held = list;
    },
    silent() {
      answering = false;
    },
    /** Answers every request made so far, letting the reader go on between them. */
    async answerAll() {
      for (let i = 0; i < 20; i++) {
        await new Promise((r) => setTimeout(r, 0));
        const next = waiting.shift();
        if (next) next();
      }
    },
  };
}
const ids = (v: TrackedView) => ('list' in v ? v.list : v.first).map((t) => t.intentId);

describe('createTrackedReader', () => {
  const all = Array.from({ length: 60 }, (_, i) => intent(60 - i));

  it('shows the first screenful, then the whole list', async () => {
    const w = worker(all);
    const views: TrackedView[] = [];
    const reader = createTrackedReader(w.source, (v) => views.push(v));
    const opened = reader.open();
    await w.answerAll();
    await opened;
    expect(w.asked).toEqual([{ first: FIRST_SCREEN_ROWS }, {}]);
    expect(views).toHaveLength(2);
    expect(views[0]).toMatchObject({ total: 60 });
    expect(ids(views[0]!)).toEqual(all.slice(0, FIRST_SCREEN_ROWS).map((t) => t.intentId));
    expect(ids(views[1]!)).toEqual(all.map((t) => t.intentId));
  });

  it('reads the store when the worker does not answer', async () => {
    const w = worker(all);
    w.silent();
    const views: TrackedView[] = [];
    const reader = createTrackedReader(w.source, (v) => views.push(v));
    const opened = reader.open();
    await w.answerAll();
    await opened;
    expect(views.map(ids)).toEqual([[hex(99)]]);
  });

  it('reads only the intents a change names, every change that came meanwhile in one request, and keeps the rest', async () => {
    const w = worker(all);
    const views: TrackedView[] = [];
    const reader = createTrackedReader(w.source, (v) => views.push(v));
    const opened = reader.open();
    await w.answerAll();
    await opened;
    const before = (views[1] as { list: TrackedIntent[] }).list;
    const failed = intent(59, { status: 'FAILED' });
    w.held = [intent(61), all[0]!, failed, ...all.slice(2)];
    const a = reader.changed([hex(59)]);
    const b = reader.changed([hex(61)]);
    expect(reader.changed([])).toBeDefined();
    await w.answerAll();
    await Promise.all([a, b]);
    expect(w.asked.slice(2)).toEqual([{ intentIds: [hex(59), hex(61)] }]);
    const after = (views[2] as { list: TrackedIntent[] }).list;
    expect(views).toHaveLength(3);
    expect(after.slice(0, 3)).toEqual([intent(61), before[0], failed]);
    expect(after[3]).toBe(before[2]);
  });

  it('applies reads in the order they were asked: a change after a reload is read after it', async () => {
    const w = worker(all);
    const views: TrackedView[] = [];
    const reader = createTrackedReader(w.source, (v) => views.push(v));
    const reloaded = reader.reload();
    const changed = reader.changed([hex(60)]);
    await w.answerAll();
    await Promise.all([reloaded, changed]);
    expect(w.asked).toEqual([{}, { intentIds: [hex(60)] }]);
    expect(views.map((v) => 'list' in v && v.list.length)).toEqual([60, 60]);
  });

  it('a change before the list is held reads the whole list', async () => {
    const w = worker(all);
    const views: TrackedView[] = [];
    const reader = createTrackedReader(w.source, (v) => views.push(v));
    const changed = reader.changed([hex(3)]);
    await w.answerAll();
    await changed;
    expect(w.asked).toEqual([{}]);
    expect(views.map(ids)).toEqual([all.map((t) => t.intentId)]);
  });

  it('goes on after a failed read, leaving the view as it was', async () => {
    const views: TrackedView[] = [];
    let fail = true;
    const reader = createTrackedReader(
      {
        ask: async () => undefined,
        readStore: async () => {
          if (fail) throw new Error('disk');
          return [intent(1)];
        },
      },
      (v) => views.push(v),
    );
    await reader.reload();
    expect(views).toEqual([]);
    fail = false;
    await reader.reload();
    expect(views.map(ids)).toEqual([[hex(1)]]);
  });
});
