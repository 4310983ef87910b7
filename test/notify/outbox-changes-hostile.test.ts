/**
 * Hostile tests of `isDue` (lib/notify/outbox-changes.ts): "a job due when it was written stays due whatever the wall
 * clock reads later; one held for a later time (a snooze's end) still waits". Attacked with the wall clock stepping
 * forward and back around each kind of job the pipeline writes, and with the calm changes (mute, snooze) that can
 * come between a job's write and its first try.
 */
import { describe, expect, it } from 'vitest';
import { nextRetryAt, planDrain } from '@/lib/notify/drain-plan';
import { backedOff, isDue, type Jobs, retryDelay, withFinal, withSnoozed } from '@/lib/notify/outbox-changes';
import { withMuted, withoutIntent } from '@/lib/notify/outbox-removal';
import type { NotificationJob } from '@/lib/store/outbox';
import { job, T } from './jobs';

const A = `0x${'a'.repeat(64)}`;
const HOUR = 3_600_000;
const table = (...jobs: NotificationJob[]): Jobs => Object.fromEntries(jobs.map((j) => [j.key, j]));

describe('isDue under wall-clock steps', () => {
  it('a job written due stays due after the clock steps forward, then back behind its write', () => {
    const final = job(`final:${A}`, 'final', 'queued');
    for (const t of [T, T + HOUR, T - 1, T - HOUR, T - 24 * HOUR]) expect(isDue(final, t)).toBe(true);
  });

  it('a chain warning held until a snooze ends waits for it through steps back and forth before its first try', () => {
    const held = job(`chain:${A}:reverted:origin`, 'chain', 'queued', { nextAt: T + HOUR });
    expect(isDue(held, T)).toBe(false);
    expect(isDue(held, T + HOUR - 1)).toBe(false);
    // The clock went back after the write: still held (the snooze's end is on the same wall clock).
    expect(isDue(held, T - HOUR)).toBe(false);
    expect(isDue(held, T + HOUR)).toBe(true);
    // Its next retry is scheduled at the snooze's end, not treated as due now.
    expect(nextRetryAt(table(held), () => T)).toBe(T + HOUR);
  });

  it('a retried job (tried once) is due within its back-off however far the clock went back, never earlier than it', () => {
    for (const attempts of [1, 2, 5, 7, 20]) {
      const failedAt = T;
      const j = backedOff(
        table(job(`final:${A}`, 'final', 'queued')),
        [`final:${A}`],
        failedAt,
        () => false,
        () => false,
      )[`final:${A}`]!;
      // Re-apply attempts (backedOff adds one to 0).
      const r = { ...j, attempts, nextAt: failedAt + retryDelay(attempts) };
      // No step: it waits for its back-off, and not longer.
      expect(isDue(r, failedAt + retryDelay(attempts) - 1)).toBe(false);
      expect(isDue(r, failedAt + retryDelay(attempts))).toBe(true);
      // Stepped back by any amount: due at once, or no later than the back-off measured from now.
      for (const back of [1, 500, 60_000, HOUR]) {
        const now = failedAt - back;
        const dueNow = isDue(r, now);
        expect(dueNow || r.nextAt - now <= retryDelay(attempts)).toBe(true);
      }
      // Stepped forward past it: due.
      expect(isDue(r, failedAt + HOUR)).toBe(true);
    }
  });

  it('a job without `at` (written by an older version) keeps the old rule: due once nextAt has come', () => {
    const old = { nextAt: T, attempts: 0 };
    expect(isDue(old, T)).toBe(true);
    expect(isDue(old, T - 1)).toBe(false);
  });

  it('nothing skipped or done is due, whatever the clock: a job muted after it was written due is not tried', () => {
    // The final was written due at T; the user mutes the intent before its first try; the clock then steps back.
    const all = withMuted(table(job(`final:${A}`, 'final', 'queued')), A, T + 10);
    for (const t of [T - HOUR, T, T + HOUR]) expect(planDrain(all, new Set(), t)).toEqual([]);
  });

  it('a snooze holds every final not yet on its way, whatever the clock; one showing, done, tried or turning its progress notification in place is left', () => {
    const B = `0x${'b'.repeat(64)}`;
    const C = `0x${'c'.repeat(64)}`;
    const D = `0x${'d'.repeat(64)}`;
    const E = `0x${'e'.repeat(64)}`;
    const all = withSnoozed(
      table(
        job(`final:${A}`, 'final', 'queued'),
        job(`final:${B}`, 'final', 'showing', { notificationId: 'b' }),
        job(`final:${C}`, 'final', 'queued', { replaces: 'p' }),
        job(`final:${D}`, 'final', 'shown'),
        job(`final:${E}`, 'final', 'queued', { attempts: 1, nextAt: T + 5_000 }),
        job(`stuck:${A}`, 'stuck', 'queued'),
      ),
      T + 10,
    );
    expect(Object.fromEntries(Object.values(all).map((j) => [j.key, j.state]))).toEqual({
      [`final:${A}`]: 'held',
      [`final:${B}`]: 'showing',
      [`final:${C}`]: 'queued',
      [`final:${D}`]: 'shown',
      [`final:${E}`]: 'queued',
      [`stuck:${A}`]: 'queued',
    });
    for (const t of [T - HOUR, T, T + HOUR]) expect(planDrain(all, new Set(), t).flatMap((u) => u.keys)).not.toContain(`final:${A}`);
  });

  it('a progress notification to clear (written due at a later time than its job was made) is cleared after the clock went back', () => {
    // The progress job was made at T - 10 min; the final at T clears it (nextAt T > at). A next worker reads the wall
    // clock an hour behind: the clear is due now, it does not wait an hour with the old progress on screen.
    const progress = job(`progress:${A}`, 'progress', 'showing', { notificationId: 'p', at: T - 600_000, nextAt: T - 600_000 });
    const final = job(`final:${A}`, 'final', 'queued');
    const all = withFinal(table(progress), final, 'show', T);
    expect(all[`progress:${A}`]!.state).toBe('clearing');
    expect(planDrain(all, new Set(), T - HOUR).flatMap((u) => u.keys)).toContain(`progress:${A}`);
  });

  it('the same for a muted or removed intent: its progress notification is cleared at once after the clock went back', () => {
    const progress = () =>
      table(job(`progress:${A}`, 'progress', 'showing', { notificationId: 'p', at: T - 600_000, nextAt: T - 600_000 }));
    for (const all of [withMuted(progress(), A, T), withoutIntent(progress(), A, T)]) {
      expect(all[`progress:${A}`]!.state).toBe('clearing');
      expect(planDrain(all, new Set(), T - HOUR).flatMap((u) => u.keys)).toEqual([`progress:${A}`]);
    }
  });

  it('a job found showing (its create was called, the worker died before the outcome was written) is settled at once', () => {
    // A chain warning held until T + 1 h was tried then (showing); the next worker's wall clock reads 30 min behind.
    const showing = job(`chain:${A}:reverted:origin`, 'chain', 'showing', {
      nextAt: T + HOUR,
      notificationId: `svc-chain:${A}:${T + HOUR}`,
    });
    expect(planDrain(table(showing), new Set(), T + HOUR - 1_800_000).flatMap((u) => u.keys)).toEqual([showing.key]);
  });

  it('a muted intent’s chain warning held for a snooze is never shown (N2)', () => {
    const held = job(`chain:${A}:reverted:origin`, 'chain', 'queued', { nextAt: T + HOUR });
    const all = withMuted(table(held), A, T + 10);
    // The snooze ends: nothing of the muted intent is tried.
    expect(planDrain(all, new Set(), T + HOUR)).toEqual([]);
  });
});
