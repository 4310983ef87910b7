/**
 * The simulator's WaitIntentReceipt decision (`waitTurn`): at every millisecond of every scenario's script, a wait
 * either answers or holds until a time at which there is something new to say — never to its deadline while a later
 * step exists. (It once read the clock twice per turn; a step boundary between the two readings held a wait for
 * its whole 20 s although the intent had just failed.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOWN_RECHECK_MS, type SimIntent, snapshotAt, stepIndex, stepStart, waitTurn } from '../../simulator/lifecycle';
import { type Simulator, startSimulator } from '../../simulator/server';

let sim: Simulator;
const intents: Record<string, SimIntent> = {};

beforeAll(async () => {
  sim = await startSimulator({ dataset: false });
  for (const scenario of ['success', 'failure', 'refund', 'stuck'] as const) {
    const id = sim.createIntent(scenario, 300);
    intents[scenario] = sim.intents().find((i) => i.intentId === id)!;
  }
});
afterAll(() => sim?.close());

describe('waitTurn', () => {
  it('answers at once, with done, when the failure script reaches FAILED exactly on the step boundary', () => {
    const intent = intents.failure!;
    const boundary = intent.startedAt + stepStart(intent.script, 3) * intent.stepMs;
    const before = snapshotAt(intent, boundary - 1);
    expect(before.status).toBe('EXECUTING');
    const turn = waitTurn(intent, before.states, boundary);
    expect('answer' in turn && turn.answer.status).toBe('FAILED');
    expect('answer' in turn && turn.answer.done).toBe(true);
    const held = waitTurn(intent, before.states, boundary - 1);
    expect('hold' in held && held.until).toBe(boundary);
  });

  for (const scenario of ['success', 'failure', 'refund', 'stuck'] as const) {
    it(`${scenario}: a held wait always has a next step to wake at, unless the script is over`, () => {
      const intent = intents[scenario]!;
      const last = intent.script.length - 1;
      const end = intent.startedAt + (stepStart(intent.script, last) + 1) * intent.stepMs;
      let holds = 0;
      for (let t = intent.startedAt - 5; t <= end + 5; t++) {
        const turn = waitTurn(intent, snapshotAt(intent, t).states, t);
        if ('answer' in turn) {
          expect(turn.answer.done).toBe(true);
          continue;
        }
        holds++;
        if (turn.until === undefined) {
          expect(stepIndex(intent, t)).toBe(last);
          continue;
        }
        expect(turn.until).toBeGreaterThan(t);
        // Waking at `until` finds a new step.
        expect(stepIndex(intent, turn.until)).toBe(stepIndex(intent, t) + 1);
      }
      expect(holds).toBeGreaterThan(0);
    });
  }
});

/**
 * An intent on the local chains shows a leg's real hash only once its chain has the transaction: a send that ends
 * after its step's time holds that step (and every later one) back, as the service reports only what it has seen. A
 * receipt that said SUCCEEDED with the destination's placeholder, its send late under load, left the extension nothing
 * to verify.
 */
describe('a step waits for the chain', () => {
  /** The success script as a chain intent whose sends ended for `hashes` only (steps of 300 ms). */
  const onChain = (hashes: Partial<Record<'deposit' | 'origin' | 'destination', string>>, error?: string): SimIntent => ({
    ...intents.success!,
    onChain: { hashes, ...(error === undefined ? {} : { error }) },
  });
  const hash = (c: string) => `0x${c.repeat(64)}`;
  // The success script: 0 COMMITTED; 1 EXECUTING, deposit PENDING (real hash); 2 EXECUTING for two steps, origin
  // RELAYING (placeholder); 3 EXECUTING, origin real, destination PENDING (placeholder); 4 SUCCEEDED, every leg real,
  // from 5 steps in.
  const at = (intent: SimIntent, steps: number) => intent.startedAt + steps * intent.stepMs;

  it('holds every step from the first that shows a hash its chain has not got', () => {
    const none = onChain({});
    expect(stepIndex(none, at(none, 9))).toBe(0);
    expect(snapshotAt(none, at(none, 9)).status).toBe('COMMITTED');
    const depositOnly = onChain({ deposit: hash('d') });
    expect(stepIndex(depositOnly, at(depositOnly, 9))).toBe(2); // the origin still a placeholder
    const noDestination = onChain({ deposit: hash('d'), origin: hash('e') });
    expect(stepIndex(noDestination, at(noDestination, 9))).toBe(3);
    const late = snapshotAt(noDestination, at(noDestination, 9));
    expect(late.status).toBe('EXECUTING');
    expect(late.done).toBe(false);
    expect((late.receipt.originTransaction as { txnHash: string }).txnHash).toBe(hash('e'));
  });

  it('shows SUCCEEDED with every real hash once the last send ends, and a failed send holds nothing', () => {
    const all = onChain({ deposit: hash('d'), origin: hash('e'), destination: hash('f') });
    const done = snapshotAt(all, at(all, 5));
    expect(done.status).toBe('SUCCEEDED');
    expect((done.receipt.destinationTransaction as { txnHash: string }).txnHash).toBe(hash('f'));
    const failed = onChain({ deposit: hash('d'), origin: hash('e') }, 'destination: nonce too low');
    const shown = snapshotAt(failed, at(failed, 5));
    expect(shown.status).toBe('SUCCEEDED');
    expect((shown.receipt.destinationTransaction as { txnHash: string }).txnHash).toMatch(/^0x[0-9a-f]{40}0{24}$/);
  });

  it('a wait held by such a step looks again shortly, never at a time gone by', () => {
    const held = onChain({ deposit: hash('d'), origin: hash('e') });
    const t = at(held, 7); // two steps past SUCCEEDED's time
    const turn = waitTurn(held, snapshotAt(held, t).states, t);
    expect('hold' in turn && turn.until).toBe(t + SHOWN_RECHECK_MS);
    // Before the step's time, the wait wakes at that time, as for any intent.
    const before = at(held, 5) - 1;
    const early = waitTurn(held, snapshotAt(held, before).states, before);
    expect('hold' in early && early.until).toBe(at(held, 5));
  });
});
