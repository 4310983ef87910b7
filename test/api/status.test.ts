/** The intent statuses after which tracking stops (deployed-wire-notes.md: SUCCEEDED and FAILED are terminal, the official client also treats REFUNDED and ABORTED as final). */
import { describe, expect, it } from 'vitest';
import { FINAL_INTENT_STATUSES } from '@/lib/api/status';

describe('FINAL_INTENT_STATUSES', () => {
  it('holds the terminal statuses and those the official client treats as final', () => {
    for (const status of ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED']) expect(FINAL_INTENT_STATUSES).toContain(status);
  });
  it('holds none of the statuses of an intent still under way', () => {
    for (const status of ['QUOTED', 'COMMITTED', 'EXECUTING']) expect(FINAL_INTENT_STATUSES).not.toContain(status);
  });
});
