/** The real clock the worker runs the tracker on: sleeps end on time, or at once when their signal aborts. */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { realClock } from '@/lib/time/clock';

describe('realClock', () => {
  it('reads the system time', () => {
    const before = Date.now();
    const now = realClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('sleeps for about the time asked', async () => {
    const start = performance.now();
    await realClock.sleep(50);
    expect(performance.now() - start).toBeGreaterThanOrEqual(45);
  });

  it('wakes early, without throwing, when the signal aborts, and at once when it already has', async () => {
    const controller = new AbortController();
    const start = performance.now();
    const sleeping = realClock.sleep(60_000, controller.signal);
    setTimeout(() => controller.abort(), 20);
    await sleeping;
    expect(performance.now() - start).toBeLessThan(5_000);
    const t = performance.now();
    await realClock.sleep(60_000, controller.signal);
    expect(performance.now() - t).toBeLessThan(1_000);
  });

  it('leaves no listener on the signal, whether it woke on time or on abort', async () => {
    // A signal may outlive its sleeps (one signal for many): each sleep takes its listener away again.
    const controller = new AbortController();
    await realClock.sleep(1, controller.signal);
    await realClock.sleep(1, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const sleeping = realClock.sleep(60_000, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    await sleeping;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
