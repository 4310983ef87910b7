/** What one run of the outbox does (lib/notify/drain-plan.ts), pure: units, waiters told, next retry. */
import { describe, expect, it } from 'vitest';
import { nextRetryAt, planDrain, settledKeys } from '@/lib/notify/drain-plan';
import type { Jobs } from '@/lib/notify/outbox-changes';
import type { NotificationJob } from '@/lib/store/outbox';
import { job, T } from './jobs';

const table = (...jobs: NotificationJob[]): Jobs => Object.fromEntries(jobs.map((j) => [j.key, j]));

describe('planDrain', () => {
  it('queued finals go first and together, then the others oldest first', () => {
    const units = planDrain(
      table(
        job('stuck:s', 'stuck', 'queued', { at: T - 30 }),
        job('final:a', 'final', 'queued', { at: T - 20 }),
        job('final:b', 'final', 'queued', { at: T - 10 }),
      ),
      new Set(),
      T,
    );
    expect(units.map((u) => [u.kind, u.keys])).toEqual([
      ['batch', ['final:a', 'final:b']],
      ['step', ['stuck:s']],
    ]);
  });
  it('leaves out what is not due, held for grouping, finished, or a progress job not being cleared', () => {
    const units = planDrain(
      table(
        job('final:later', 'final', 'queued', { nextAt: T + 5 }),
        job('final:grouped', 'final', 'queued'),
        job('final:told', 'final', 'shown'),
        job('progress:p', 'progress', 'showing'),
        job('progress:q', 'progress', 'clearing'),
      ),
      new Set(['final:grouped']),
      T,
    );
    expect(units.map((u) => u.keys)).toEqual([['progress:q']]);
  });
  it('finals found showing under one id are one unit; a final replacing its progress is its own step', () => {
    const units = planDrain(
      table(
        job('final:a', 'final', 'showing', { notificationId: 'g', at: T - 3 }),
        job('final:b', 'final', 'showing', { notificationId: 'g', at: T - 2 }),
        job('final:c', 'final', 'queued', { replaces: 'p', at: T - 1 }),
      ),
      new Set(),
      T,
    );
    expect(units.map((u) => u.keys)).toEqual([['final:a', 'final:b'], ['final:c']]);
  });
});

describe('after a run', () => {
  const after = table(
    job('final:shown', 'final', 'shown'),
    job('final:retry', 'final', 'queued', { attempts: 1, nextAt: T + 1000 }),
    job('final:due', 'final', 'queued'),
  );
  it('waiters are told of a settled, missing or retrying job, not of one still due or held for grouping (not yet written)', () => {
    const keys = settledKeys(
      ['final:shown', 'final:missing', 'final:retry', 'final:due', 'final:grouped'],
      after,
      new Set(['final:grouped']),
      () => T,
    );
    expect(keys).toEqual(['final:shown', 'final:missing', 'final:retry']);
  });
  it('the next retry is the earliest unfinished job not yet due; none: Infinity', () => {
    expect(nextRetryAt(after, () => T)).toBe(T + 1000);
    expect(nextRetryAt(table(job('final:shown', 'final', 'shown')), () => T)).toBe(Number.POSITIVE_INFINITY);
  });
});
