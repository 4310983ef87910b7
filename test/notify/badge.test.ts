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
