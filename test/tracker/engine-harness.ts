/**
 * The engine against the fake service on an event clock: `engineHarness(waitMs, history)` gives a tracker whose
 * requests are all logged (`service.log`), and `add(n, steps)` an intent `sid(n)` that is COMMITTED at once and then
 * follows `steps` ([delay ms after the previous step, status, leg states]).
 */
import { MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import type { TrackerDeps } from '@/lib/tracker/types';
import { type FakeIntent, FakeService, type HistoryMode } from './fake-service';
import { EventClock, RecordingNotifier } from './fakes';

/** A history that lists every tracked intent and nothing else, honestly. */
export const HONEST: HistoryMode = {
  others: 0,
  othersSpanMs: 60_000,
  ignoreOwner: false,
  repeatCursor: false,
  outOfOrder: false,
  staleRows: false,
};
/** [deposit, origin, destination] while the deposit is pending. */
export const PENDING = ['PENDING', 'UNKNOWN', 'UNKNOWN'];
/** The intentId numbered `n`. */
export const sid = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** Builds the harness; `history` null = a transport without GetIntentHistory; every request takes `latencyMs` at least. */
export function engineHarness(waitMs: number, history: HistoryMode | null = HONEST, overrides: Partial<TrackerDeps> = {}, latencyMs = 10) {
  const clock = new EventClock();
  const service = new FakeService(clock, waitMs, history ?? undefined, latencyMs);
  const store = new MemoryStore();
  const notifier = new RecordingNotifier();
  const states: unknown[] = [];
  const tracker = new Tracker({
    store,
    clock,
    notifier,
    transport: async () => service.transport(),
    random: () => 1,
    onStateChange: (s) => states.push(s),
    ...overrides,
  });
  const add = (n: number, steps: Array<[number, string, string[]]> = [[1_000, 'EXECUTING', PENDING]], extra: Partial<FakeIntent> = {}) => {
    const t0 = clock.now();
    let t = t0;
    service.add({
      intentId: sid(n),
      ownerAddress: '0xa1',
      createdAt: t0,
      inHistory: true,
      steps: [
        { at: t0, status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'] },
        ...steps.map(([d, status, st]) => {
          t += d;
          return { at: t, status, states: st };
        }),
      ],
      ...extra,
    });
  };
  return { clock, service, store, notifier, tracker, add, states };
}
