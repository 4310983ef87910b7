/** What the outbox's tests build jobs and stores with (test/store/outbox*.test.ts). */
import { createStore, type UseStore } from 'idb-keyval';
import type { NotificationJob } from '@/lib/store/outbox';

let n = 0;
/** A new, empty outbox store on fake-indexeddb (a database of its own). */
export const freshOutboxStore = (): UseStore => createStore(`outbox-test-${++n}-${Math.random()}`, 'jobs');

/** A queued final job under `key` at 0 ms, with `over` on top. */
export const job = (key: string, over: Partial<NotificationJob> = {}): NotificationJob => ({
  key,
  kind: 'final',
  state: 'queued',
  intentIds: ['0x01'],
  attempts: 0,
  nextAt: 0,
  at: 0,
  ...over,
});

/** The table of `jobs`, each under its key. */
export const byKey = (...jobs: NotificationJob[]): Record<string, NotificationJob> => Object.fromEntries(jobs.map((j) => [j.key, j]));
