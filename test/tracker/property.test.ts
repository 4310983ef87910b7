/**
 * Property-based campaign (fast-check): random intent lifecycles, random faults on every call, and random worker
 * restarts (the engine is killed — its pending work never resumes — and a new one is built from the store), on
 * virtual time. For every schedule: every intent that reaches a notifying final status is notified exactly once;
 * none is notified before it is final; never more than 4 requests are in flight.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SvcBadBodyError, SvcNetworkError, SvcServiceError, SvcTimeoutError } from '@/lib/api/errors';
import type { IntentReceipt, WaitIntentReceiptRequest, WaitIntentReceiptResponse } from '@/lib/api/schemas/receipt';
import type { IntentStore, TrackedIntent, TrackerState, TrackerStateStore } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import type { Clock } from '@/lib/tracker/clock';
import { NOTIFYING_STATUSES, type Notifier, type ReceiptTransport, Tracker } from '@/lib/tracker/engine';

const flush = async () => {
  for (let i = 0; i < 4; i++) await new Promise((r) => setImmediate(r));
};

/** Virtual time with an event queue; `runUntil` fires due sleeps in order, flushing work between them. */
class EventClock implements Clock {
  t = 0;
  timers: Array<{ at: number; resolve: () => void }> = [];
  now() {
    return this.t;
  }
  sleep(ms: number, signal?: AbortSignal) {
    return new Promise<void>((resolve) => {
      const timer = { at: this.t + Math.max(0, ms), resolve };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        this.timers = this.timers.filter((x) => x !== timer);
        resolve();
      });
    });
  }
  /** Runs to `end`, firing timers in order; `events` (sorted times) run `onEvent` at their time, between timers. */
  async runUntil(end: number, events: number[], onEvent: () => Promise<void>) {
    for (;;) {
      await flush();
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (events.length > 0 && events[0]! <= Math.min(end, next?.at ?? end)) {
        this.t = Math.max(this.t, events.shift()!);
        await onEvent();
        continue;
      }
      if (!next || next.at > end) break;
      this.timers = this.timers.filter((x) => x !== next);
      this.t = Math.max(this.t, next.at);
      next.resolve();
    }
    this.t = end;
    await flush();
  }
}

type Step = { status: string; states: string[]; after: number };
type Fault = 'ok' | 'ok' | 'ok' | '500' | 'reset' | 'malformed' | 'timeout' | '429';

const FINAL = ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED'];

/** Lifecycles: 1 to 4 steps, each after 0–90 s, ending final or not. */
const lifecycle = fc
  .tuple(
    fc.array(fc.integer({ min: 0, max: 90_000 }), { minLength: 1, maxLength: 4 }),
    fc.constantFrom('SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'EXECUTING'),
  )
  .map(([delays, end]): Step[] => {
    const steps: Step[] = [{ status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'], after: 0 }];
    delays.forEach((d, i) => {
      const last = i === delays.length - 1;
      steps.push({
        status: last ? end : 'EXECUTING',
        states:
          last && end !== 'EXECUTING'
            ? [end === 'SUCCEEDED' ? 'SUCCEEDED' : 'FAILED', 'UNKNOWN', 'UNKNOWN']
            : ['PENDING', `S${i}`, 'UNKNOWN'],
        after: d,
      });
    });
    return steps;
  });

const scenario = fc.record({
  intents: fc.array(lifecycle, { minLength: 1, maxLength: 8 }),
  faults: fc.array(fc.constantFrom<Fault>('ok', 'ok', 'ok', '500', 'reset', 'malformed', 'timeout', '429'), {
    minLength: 1,
    maxLength: 40,
  }),
  restarts: fc.array(fc.integer({ min: 1_000, max: 600_000 }), { maxLength: 4 }),
  serverWaitMs: fc.constantFrom(0, 2_000, 20_000),
  /** Kill the worker right after the first notification it shows, before it can record it as shown. */
  crashOnShow: fc.boolean(),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** Faults come in a burst: the i-th call gets the i-th fault, later calls succeed. */
async function runSchedule(s: Scenario) {
  const clock = new EventClock();
  const store = new MemoryStore();
  const state = new MemoryStateStore();
  const ids = s.intents.map((_, i) => `0x${String(i + 1).padStart(64, '0')}`);
  // Absolute step times per intent.
  const timeline = s.intents.map((steps) => {
    let t = 0;
    return steps.map((st) => {
      t += st.after;
      return { ...st, at: t };
    });
  });
  const stepAt = (i: number, now: number) => [...timeline[i]!].reverse().find((st) => st.at <= now)!;
  const nextChange = (i: number, now: number) => timeline[i]!.find((st) => st.at > now)?.at;
  const receiptOf = (i: number, now: number): IntentReceipt => ({ intentId: ids[i]!, status: stepAt(i, now).status });

  let inFlight = 0;
  let maxInFlight = 0;
  let call = 0;
  const shown = new Map<string, number>();
  const violations: string[] = [];
  let crashed = false;
  const restarts = [...s.restarts].sort((a, b) => a - b);
  const onScreen = new Set<string>();

  /** Everything one engine instance touches; `dead` makes it inert, as a killed worker is. */
  const generation = () => {
    let dead = false;
    const hang = <T>(): Promise<T> => new Promise<T>(() => {});
    const guard =
      <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
      (...a: A): Promise<R> =>
        dead ? hang<R>() : f(...a).then((r) => (dead ? hang<R>() : r));
    const transport: ReceiptTransport = {
      waitIntentReceipt: guard(
        async (req: WaitIntentReceiptRequest, opts?: { signal?: AbortSignal }): Promise<WaitIntentReceiptResponse> => {
          const i = ids.indexOf(req.intentId);
          const fault = s.faults[call++] ?? 'ok';
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          try {
            await clock.sleep(10, opts?.signal);
            if (opts?.signal?.aborted) throw new Error('aborted');
            if (fault === '500')
              throw new SvcServiceError('WaitIntentReceipt', { errorName: 'WebrpcInternalError', code: -7, msg: 'x', httpStatus: 500 });
            if (fault === 'reset') throw new SvcNetworkError('WaitIntentReceipt', 'http://sim', 'reset');
            if (fault === 'malformed') throw new SvcBadBodyError('WaitIntentReceipt', 200, 'a body that is not JSON', '{');
            if (fault === '429')
              throw new SvcServiceError('WaitIntentReceipt', {
                errorName: 'RateLimited',
                code: 1007,
                msg: 'x',
                httpStatus: 429,
                retryAfterSeconds: 3,
              });
            if (fault === 'timeout') {
              await clock.sleep(150_000, opts?.signal);
              throw new SvcTimeoutError('WaitIntentReceipt', 150_000);
            }
            const deadline = clock.now() + s.serverWaitMs;
            for (;;) {
              const st = stepAt(i, clock.now());
              const last = req.lastReceiptStates ?? [];
              const changed = st.states.length !== last.length || st.states.some((x, k) => x !== last[k]);
              const done = st.status === 'SUCCEEDED' || st.status === 'FAILED';
              if (changed || done || clock.now() >= deadline)
                return { intentReceipt: receiptOf(i, clock.now()), receiptStates: st.states, done };
              const next = nextChange(i, clock.now());
              await clock.sleep(Math.min(next ?? Number.POSITIVE_INFINITY, deadline) - clock.now(), opts?.signal);
              if (opts?.signal?.aborted) throw new Error('aborted');
            }
          } finally {
            inFlight--;
          }
        },
      ),
      getIntentReceipt: guard(async (req: { intentId: string }, opts?: { signal?: AbortSignal }) => {
        const i = ids.indexOf(req.intentId);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          await clock.sleep(10, opts?.signal);
          if (opts?.signal?.aborted) throw new Error('aborted');
          const fault = s.faults[call++] ?? 'ok';
          if (fault === '500')
            throw new SvcServiceError('GetIntentReceipt', { errorName: 'WebrpcInternalError', code: -7, msg: 'x', httpStatus: 500 });
          return { intentReceipt: receiptOf(i, clock.now()) };
        } finally {
          inFlight--;
        }
      }),
    };
    const notifier: Notifier = {
      show: guard(async (intent: TrackedIntent) => {
        const i = ids.indexOf(intent.intentId);
        if (!FINAL.includes(stepAt(i, clock.now()).status)) violations.push(`${intent.intentId} notified before it was final`);
        const record = store.map.get(intent.intentId);
        if (record?.phase !== 'final' || record.notification !== 'pending')
          violations.push(`${intent.intentId} notified before its final state was written`);
        shown.set(intent.intentId, (shown.get(intent.intentId) ?? 0) + 1);
        onScreen.add(intent.intentId);
        if (s.crashOnShow && !crashed) {
          crashed = true;
          restarts.unshift(clock.now());
        }
        await clock.sleep(5);
        return { title: 't', message: 'm' };
      }),
      exists: guard(async (id: string) => onScreen.has(id)),
    };
    const memory = {
      get: guard((id: string) => store.get(id)),
      list: guard(() => store.list()),
      put: guard((t: TrackedIntent) => store.put(t)),
      update: guard((id: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) => store.update(id, fn)),
      remove: guard((id: string) => store.remove(id)),
    } as IntentStore;
    const stateStore = { get: guard(() => state.get()), set: guard((st: TrackerState) => state.set(st)) } as TrackerStateStore;
    const tracker = new Tracker({
      store: memory,
      stateStore,
      clock,
      notifier,
      transport: async () => transport,
      random: () => 0.5,
      backoffCapMs: 20_000,
    });
    return {
      tracker,
      kill: () => {
        dead = true;
        tracker.stop();
      },
    };
  };

  let current = generation();
  for (const id of ids) await current.tracker.track(id);
  const end = Math.max(...timeline.map((t) => t[t.length - 1]!.at)) + 20 * 60_000;
  await clock.runUntil(end, restarts, async () => {
    current.kill();
    current = generation();
    await current.tracker.resume();
  });
  current.kill();

  const expected = ids.filter((_, i) => NOTIFYING_STATUSES.includes(stepAt(i, end).status));
  return { expected, shown, violations, maxInFlight, ids };
}

describe('tracker under random faults and restarts (fast-check)', () => {
  it('notifies every final intent exactly once, never early, with at most 4 requests in flight', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const r = await runSchedule(s);
        expect(r.violations).toEqual([]);
        expect(r.maxInFlight).toBeLessThanOrEqual(4);
        for (const id of r.ids) expect(r.shown.get(id) ?? 0, id).toBe(r.expected.includes(id) ? 1 : 0);
      }),
      { numRuns: 1000, seed: 20261121 },
    );
  }, 600_000);
});
