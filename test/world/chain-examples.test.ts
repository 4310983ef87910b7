/**
 * The `chain` family's kept schedules (./chain-examples.ts) in `npm test`: each passes the oracle today.
 */
import { expect, it, vi } from 'vitest';
import { CHAIN_FIXED } from './chain-examples';
import { check } from './oracle';
import { runWorld } from './run';

it('the chain family’s schedules kept as found and fixed pass', async () => {
  const quiet = [vi.spyOn(console, 'warn').mockImplementation(() => {}), vi.spyOn(console, 'error').mockImplementation(() => {})];
  const failed: string[] = [];
  for (const example of CHAIN_FIXED) {
    const { violations } = await check(await runWorld(example.schedule, example.seed));
    if (violations.length > 0) failed.push(`${example.found}\n  ${violations.join('\n  ')}`);
  }
  for (const q of quiet) q.mockRestore();
  expect(failed).toEqual([]);
}, 60_000);
