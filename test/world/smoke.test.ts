import { expect, it } from 'vitest';
import { runWorld } from './run';
import { drawSchedule } from './schedule';

it('smoke', async () => {
  const s = drawSchedule(1, 0, new Set());
  s.intents = [{ ...s.intents[0]!, addAt: 0, createdBefore: 1000, committedFor: 5000, executing: [10000], end: 'SUCCEEDED' }];
  const t = Date.now();
  const o = await runWorld(s, 1);
  console.log(Date.now() - t, 'ms', o.world.profile.desktop.log, o.service.log.length, o.phaseAt, o.deaths, o.world.lives.length);
  expect(o.world.profile.desktop.log.length).toBeGreaterThan(0);
});
