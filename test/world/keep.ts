/**
 * Prints a failing world run as an entry for test/world/kept/<area>.ts:
 * `npx tsx test/world/keep.ts <seed> <index> "<what it found>"` (families from WORLD_FAULTS, default all).
 */
import { familiesFrom } from './campaign';
import { drawSchedule } from './schedule';

const [seed, index, found] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4] ?? ''];
const faults = process.env.WORLD_FAULTS ?? 'all';
const schedule = drawSchedule(seed, index, familiesFrom(faults));
console.log(
  `  {\n    // Seed ${seed}, run ${index} (WORLD_FAULTS=${faults}).\n    seed: ${seed + index},\n    found: ${JSON.stringify(found)},\n    schedule: ${JSON.stringify(schedule)} as unknown as Schedule,\n  },`,
);
