/** The engine's pump loop (lib/tracker/pump.ts `PumpLoop`): wake-ups coalesced, one timer, none once stopped. */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@/lib/store/memory';
import { createCore } from '@/lib/tracker/engine-core';
import { PumpLoop } from '@/lib/tracker/pump';
import { EventClock, RecordingNotifier } from './fakes';

function loop() {
  const clock = new EventClock();
  const core = createCore({ store: new MemoryStore(), clock, notifier: new RecordingNotifier(), transport: async () => undefined });
  const runs: number[] = [];
  let release: (() => void) | undefined;
  const l = new PumpLoop(core, async () => {
    runs.push(clock.t);
    await new Promise<void>((r) => {
      release = r;
    });
  });
  return { clock, core, l, runs, finish: () => release?.() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('PumpLoop', () => {
  it('wake-ups during a run make one more run after it, not one each', async () => {
    const { l, runs, finish } = loop();
    l.kick();
    l.kick();
    l.kick();
    await tick();
    expect(runs).toHaveLength(1);
    finish();
    await tick();
    expect(runs).toHaveLength(2);
    finish();
    await tick();
    expect(runs).toHaveLength(2);
  });

  it('wakes at the earliest time asked; a later one does not move it; nothing once stopped', async () => {
    const { clock, core, l, runs, finish } = loop();
    const t0 = clock.t;
    l.wakeAt(clock.now() + 5_000);
    l.wakeAt(clock.now() + 9_000);
    l.wakeAt(clock.now() + 2_000);
    await clock.advance(2_000);
    expect(runs).toEqual([t0 + 2_000]);
    finish();
    await clock.advance(10_000);
    expect(runs).toHaveLength(1);
    core.stopped = true;
    l.wakeAt(clock.now() + 1_000);
    l.kick();
    await clock.advance(5_000);
    expect(runs).toHaveLength(1);
  });
});
