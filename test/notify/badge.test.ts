import { describe, expect, it } from 'vitest';
import { badgeFor } from '@/lib/notify/badge';
import type { TrackedIntent } from '@/lib/store';

const t = (n: number, phase: TrackedIntent['phase'], status?: string, seen?: boolean): TrackedIntent => ({
  intentId: `0x${n}`,
  addedAt: n,
  lastStates: [],
  phase,
  notification: 'none',
  ...(status ? { status } : {}),
  ...(seen ? { seen } : {}),
});

describe('badgeFor', () => {
  it('counts intents in flight', () => {
    expect(badgeFor([t(1, 'tracking'), t(2, 'tracking'), t(3, 'final', 'SUCCEEDED')], {})).toMatchObject({ text: '2', color: '#3b5bdb' });
    expect(badgeFor([], {}).text).toBe('');
  });
  it('shows unseen failures in red until seen', () => {
    expect(badgeFor([t(1, 'tracking'), t(2, 'final', 'FAILED'), t(3, 'final', 'FAILED')], {})).toMatchObject({
      text: '2',
      color: '#b42318',
    });
    expect(badgeFor([t(1, 'tracking'), t(2, 'final', 'FAILED', true)], {})).toMatchObject({ text: '1', color: '#3b5bdb' });
  });
  it('shows "!" while the key is rejected', () => {
    expect(badgeFor([t(1, 'tracking')], { keyRejected: { kind: 'key-rejected', message: 'm', at: 0 } }).text).toBe('!');
  });
});

/** What the toolbar button shows: the badge text, its colour, and the tooltip a user reads on hover. */
describe('badgeFor: the tooltip and the limits of the text', () => {
  const many = (count: number, phase: TrackedIntent['phase'], status?: string) =>
    Array.from({ length: count }, (_, i) => t(i + 1, phase, status));
  it('names the reason of the pause, in red', () => {
    expect(badgeFor([t(1, 'tracking')], { keyRejected: { kind: 'key-rejected', message: 'm', at: 0 } })).toEqual({
      text: '!',
      color: '#b42318',
      title:
        'Svc Intent Tracker — paused: The service rejected the access key. Tracking is paused until the key is updated in the settings.',
    });
  });
  it('says one failed intent, or how many, in the tooltip', () => {
    expect(badgeFor([t(1, 'final', 'FAILED')], {}).title).toBe('Svc Intent Tracker — 1 failed intent not seen yet');
    expect(badgeFor(many(3, 'final', 'FAILED'), {}).title).toBe('Svc Intent Tracker — 3 failed intents not seen yet');
    expect(badgeFor(many(999, 'final', 'FAILED'), {}).text).toBe('999');
    expect(badgeFor(many(1000, 'final', 'FAILED'), {}).text).toBe('999+');
  });
  it('says one intent in flight, or how many, or just the name when none', () => {
    expect(badgeFor([], {})).toEqual({ text: '', color: '#3b5bdb', title: 'Svc Intent Tracker' });
    expect(badgeFor([t(1, 'final', 'SUCCEEDED')], {})).toEqual({ text: '', color: '#3b5bdb', title: 'Svc Intent Tracker' });
    expect(badgeFor([t(1, 'tracking')], {})).toEqual({ text: '1', color: '#3b5bdb', title: 'Svc Intent Tracker — 1 intent in flight' });
    expect(badgeFor(many(2, 'tracking'), {}).title).toBe('Svc Intent Tracker — 2 intents in flight');
  });
  it('keeps the text within four characters', () => {
    expect(badgeFor(many(999, 'tracking'), {}).text).toBe('999');
    expect(badgeFor(many(1000, 'tracking'), {}).text).toBe('999+');
  });
});
