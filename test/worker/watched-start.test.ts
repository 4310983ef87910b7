/** Where a watched address's check starts and what checkpoint may be stored: the pure parts of lib/worker/watched.ts. */
import { describe, expect, it } from 'vitest';
import { saneCheckpoint, startCheckpoint } from '@/lib/worker/watched';

const NOW_S = 1_800_000_000;

describe('startCheckpoint', () => {
  it('a first look reads the last hour', () => {
    expect(startCheckpoint(undefined, 'a', NOW_S, NOW_S)).toEqual({ fromTime: NOW_S - 3600 });
  });
  it('a checkpoint of the same tick is read on from where it stood, its cursor kept', () => {
    const known = { fromTime: NOW_S - 500, after: 7, tick: 'a' };
    expect(startCheckpoint(known, 'a', NOW_S, NOW_S)).toBe(known);
  });
  it('an address ticked again (another token, or seen unticked) starts a minute back from now', () => {
    expect(startCheckpoint({ fromTime: NOW_S - 9_000, tick: 'a' }, 'b', NOW_S, NOW_S)).toEqual({ fromTime: NOW_S - 60 });
    expect(startCheckpoint({ fromTime: NOW_S - 9_000, tick: 'a', unticked: true }, 'a', NOW_S, NOW_S)).toEqual({ fromTime: NOW_S - 60 });
  });
  it("a checkpoint in the service's future is read as a first look", () => {
    expect(startCheckpoint({ fromTime: NOW_S + 10, tick: 'a' }, 'a', NOW_S, NOW_S)).toEqual({ fromTime: NOW_S - 3600 });
  });
});

describe('saneCheckpoint', () => {
  it('keeps a checkpoint up to the latest the service time can be', () => {
    expect(saneCheckpoint({ fromTime: NOW_S }, NOW_S)).toEqual({ fromTime: NOW_S });
  });
  it('moves one beyond it to a minute before it, its cursor kept', () => {
    expect(saneCheckpoint({ fromTime: NOW_S + 5, after: 3 }, NOW_S)).toEqual({ fromTime: NOW_S - 60, after: 3 });
  });
});
