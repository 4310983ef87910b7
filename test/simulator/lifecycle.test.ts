/**
 * The simulator's WaitIntentReceipt decision (`waitTurn`): at every millisecond of every scenario's script, a wait
 * either answers or holds until a time at which there is something new to say — never to its deadline while a later
 * step exists. (It once read the clock twice per turn; a step boundary between the two readings held a wait for
 * its whole 20 s although the intent had just failed.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimIntent, snapshotAt, stepIndex, stepStart, waitTurn } from '../../simulator/lifecycle';
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
