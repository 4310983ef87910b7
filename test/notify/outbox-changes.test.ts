/**
 * Which outbox changes follow (lib/notify/outbox-changes.ts), pure: each change of the job table checked on a table
 * written here by hand, against the outbox's rules (lib/store/outbox.ts, docs/notifications.md N1–N5).
 */
import { describe, expect, it } from 'vitest';
import {
  addInfo,
  awayKeyOf,
  backedOff,
  batchNotificationId,
  isDue,
  type Jobs,
  retryDelay,
  withFinal,
  withLegacyHeld,
  withSummary,
} from '@/lib/notify/outbox-changes';
import { withMuted, withoutIntent } from '@/lib/notify/outbox-removal';
import { job, T } from './jobs';

const A = `0x${'a'.repeat(64)}`;
const B = `0x${'b'.repeat(64)}`;

describe('the back-off', () => {
  it('waits 1 s, then doubles, never more than a minute', () => {
    expect([1, 2, 3, 4, 7, 8, 30].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 60_000, 60_000, 60_000]);
  });
  it('a job is due when its time came, or when the wall clock went back further than its back-off', () => {
    expect(isDue({ nextAt: T, attempts: 0 }, T)).toBe(true);
    expect(isDue({ nextAt: T + 1, attempts: 0 }, T)).toBe(false);
    // 2 attempts: a 2 s wait at most. 3 s ahead: the clock went back, tried now.
    expect(isDue({ nextAt: T + 2000, attempts: 2 }, T)).toBe(false);
    expect(isDue({ nextAt: T + 3000, attempts: 2 }, T)).toBe(true);
  });
  it('a job due when it was written stays due when the next worker reads the wall clock behind its writer', () => {
    // A final job written at T (due at once), read by a worker whose wall clock went back 10 min while none ran: the
    // user is told now, not once the wall clock reads T again (seed 20261129 run 16999: told 185 s late).
    const final = job(`final:${A}`, 'final', 'queued');
    expect(isDue(final, T - 600_000)).toBe(true);
    expect(isDue(final, T - 3_600_000)).toBe(true);
    // Held until a later time (a chain warning until a snooze ends at T + 1 h): it still waits for it.
    const held = job(`chain:${A}`, 'chain', 'queued', { nextAt: T + 3_600_000 });
    expect(isDue(held, T + 1_000)).toBe(false);
    expect(isDue(held, T + 3_600_000)).toBe(true);
  });
  it('a rejected create queues its job again; one whose call resolved here is shown; any other failure keeps its state', () => {
    const all: Jobs = {
      [`final:${A}`]: job(`final:${A}`, 'final', 'showing', { notificationId: 'rejected', attempts: 1 }),
      [`final:${B}`]: job(`final:${B}`, 'final', 'showing', { notificationId: 'resolved' }),
      [`stuck:${A}`]: job(`stuck:${A}`, 'stuck', 'showing', { notificationId: 'unknown' }),
      [`stuck:${B}`]: job(`stuck:${B}`, 'stuck', 'shown', { notificationId: 'x' }),
    };
    const out = backedOff(
      all,
      [`final:${A}`, `final:${B}`, `stuck:${A}`, `stuck:${B}`, 'missing'],
      T,
      (id) => id === 'resolved',
      (id) => id === 'rejected',
    );
    expect(out[`final:${A}`]).toMatchObject({ state: 'queued', attempts: 2, nextAt: T + 2000 });
    expect(out[`final:${B}`]).toMatchObject({ state: 'shown', attempts: 1, nextAt: T + 1000 });
    expect(out[`stuck:${A}`]).toMatchObject({ state: 'showing', attempts: 1, nextAt: T + 1000 });
    expect(out[`stuck:${B}`]).toMatchObject({ state: 'shown', attempts: 0 });
    expect(out.missing).toBeUndefined();
  });
});

describe('notification ids', () => {
  it('one final names its intent and the time; several name the time and every intent', () => {
    expect(batchNotificationId([job(`final:${A}`, 'final', 'queued')], 5)).toBe(`svc-intent:${A}:5`);
    expect(batchNotificationId([job(`final:${A}`, 'final', 'queued'), job(`final:${B}`, 'final', 'queued')], 5)).toBe(
      `svc-group:5:${A},${B}`,
    );
  });
  it('an away summary and an information follow their key; stuck and chain warnings name the intent and the time', () => {
    expect(batchNotificationId([job(`away:7:${A}`, 'away', 'queued')], 5)).toBe(`svc-away:7:${A}`);
    expect(batchNotificationId([job('info:7:0', 'info', 'queued')], 5)).toBe('svc-info:7:0');
    expect(batchNotificationId([job(`stuck:${A}`, 'stuck', 'queued')], 5)).toBe(`svc-stuck:${A}:5`);
    expect(batchNotificationId([job(`chain:${A}:reverted:origin`, 'chain', 'queued')], 5)).toBe(`svc-chain:${A}:5`);
  });
});

describe('a final outcome', () => {
  it('updated in place ends the progress job; shown otherwise clears its notification', () => {
    const progress = job(`progress:${A}`, 'progress', 'shown', { notificationId: 'p' });
    const updated = withFinal({ [progress.key]: progress }, job(`final:${A}`, 'final', 'queued'), 'update', T + 9);
    expect(updated[`progress:${A}`]).toMatchObject({ state: 'done', reason: 'final' });
    expect(updated[`final:${A}`]?.state).toBe('queued');
    const shown = withFinal({ [progress.key]: progress }, job(`final:${A}`, 'final', 'queued'), 'show', T + 9);
    expect(shown[`progress:${A}`]).toMatchObject({ state: 'clearing', nextAt: T + 9 });
  });
  it('a progress job already done is left as it is', () => {
    const done = job(`progress:${A}`, 'progress', 'done', { reason: 'cleared' });
    expect(withFinal({ [done.key]: done }, job(`final:${A}`, 'final', 'queued'), 'show', T)[done.key]).toEqual(done);
  });
});

describe('held notifications', () => {
  it("the earlier version's held ones become held final jobs at their time; an intent with a final job keeps it", () => {
    const mine = job(`final:${B}`, 'final', 'shown');
    const out = withLegacyHeld(
      { [mine.key]: mine },
      [
        { intentId: A, status: 'SUCCEEDED', heldAt: T - 50 },
        { intentId: B, status: 'FAILED', heldAt: T - 40 },
      ],
      T,
    );
    expect(out[`final:${A}`]).toMatchObject({ kind: 'final', state: 'held', status: 'SUCCEEDED', at: T - 50, nextAt: T });
    expect(out[`final:${B}`]).toBe(mine);
  });
  it('each held job is a line of the away summary, or skipped when muted meanwhile; never both', () => {
    const a = job(`final:${A}`, 'final', 'held');
    const b = job(`final:${B}`, 'final', 'held');
    const key = awayKeyOf([a], T);
    expect(key).toBe(`away:${T}:${A}`);
    const out = withSummary({ [a.key]: a, [b.key]: b }, [a, b], [a], key, { title: 'Away', message: '1' }, T);
    expect(out[a.key]).toMatchObject({ state: 'done', reason: `summarised:${key}` });
    expect(out[b.key]).toMatchObject({ state: 'done', reason: 'skipped' });
    expect(out[key]).toMatchObject({ kind: 'away', state: 'queued', intentIds: [A], title: 'Away', message: '1' });
  });
  it('nothing due: no away job', () => {
    const b = job(`final:${B}`, 'final', 'held');
    expect(awayKeyOf([], T)).toBe('');
    expect(Object.keys(withSummary({ [b.key]: b }, [b], [], '', { title: '', message: '' }, T))).toEqual([b.key]);
  });
});

describe('an intent removed, or muted', () => {
  it('removed: its final, stuck and chain jobs go, its progress is cleared, a shown link is kept', () => {
    const all: Jobs = {
      [`final:${A}`]: job(`final:${A}`, 'final', 'shown', { notificationId: 'n', explorerUrl: 'https://etherscan.io/tx/0x1' }),
      [`stuck:${A}`]: job(`stuck:${A}`, 'stuck', 'shown'),
      [`chain:${A}:reverted:origin`]: job(`chain:${A}:reverted:origin`, 'chain', 'queued'),
      [`progress:${A}`]: job(`progress:${A}`, 'progress', 'shown', { notificationId: 'p' }),
      [`final:${B}`]: job(`final:${B}`, 'final', 'shown'),
    };
    const out = withoutIntent(all, A, T + 1);
    expect(Object.keys(out).sort()).toEqual([`final:${B}`, `gone:${A}`, `progress:${A}`].sort());
    expect(out[`gone:${A}`]).toMatchObject({ state: 'done', reason: 'forgotten', explorerUrl: 'https://etherscan.io/tx/0x1' });
    expect(out[`progress:${A}`]).toMatchObject({ state: 'clearing', nextAt: T + 1 });
  });
  it('muted: a final still queued is skipped, one on its way is not; the progress notification is cleared', () => {
    const queued = withMuted({ [`final:${A}`]: job(`final:${A}`, 'final', 'queued') }, A, T);
    expect(queued[`final:${A}`]).toMatchObject({ state: 'done', reason: 'skipped' });
    const showing = withMuted({ [`final:${A}`]: job(`final:${A}`, 'final', 'showing') }, A, T);
    expect(showing[`final:${A}`]?.state).toBe('showing');
  });
});

describe('an information', () => {
  it('takes the first free number at its time', () => {
    const all: Jobs = { [`info:${T}:0`]: job(`info:${T}:0`, 'info', 'shown') };
    let seq = 0;
    const key = addInfo(all, 'Svc', 'Tracking 0x12…', T, () => seq++);
    expect(key).toBe(`info:${T}:1`);
    expect(all[key]).toMatchObject({ kind: 'info', state: 'queued', intentIds: [], title: 'Svc', message: 'Tracking 0x12…' });
  });
});
