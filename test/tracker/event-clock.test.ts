/** The campaign's virtual clock: timers fire in time order, and a wake-up loop that never lets time pass fails. */
import { describe, expect, it } from 'vitest';
import { EventClock } from './fakes';

describe('EventClock', () => {
  it('fires timers in time order and ends at the time asked', async () => {
    const clock = new EventClock();
    const t0 = clock.now();
    const fired: number[] = [];
    void clock.sleep(300).then(() => fired.push(clock.now() - t0));
    void clock.sleep(100).then(() => fired.push(clock.now() - t0));
    await clock.runUntil(t0 + 1_000, []);
    expect(fired).toEqual([100, 300]);
    expect(clock.now()).toBe(t0 + 1_000);
  });

  it('fails a run whose code keeps waking itself at one instant, instead of hanging', async () => {
    const clock = new EventClock();
    let stop = false;
    const loop = async () => {
      while (!stop) await clock.sleep(0);
    };
    void loop();
    await expect(clock.runUntil(clock.now() + 1_000, [])).rejects.toThrow(/busy loop/);
    stop = true;
  });

  it('lets many timers fire at one instant when time moves on afterwards', async () => {
    const clock = new EventClock();
    const t0 = clock.now();
    let fired = 0;
    for (let i = 0; i < 500; i++) void clock.sleep(50).then(() => fired++);
    await clock.runUntil(t0 + 100, []);
    expect(fired).toBe(500);
  });
});
