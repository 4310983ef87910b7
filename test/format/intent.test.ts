/** The words of statuses and legs the popup and the notifications use (lib/format/intent.ts). */
import { describe, expect, it } from 'vitest';
import { legName, statusLabel } from '@/lib/format/intent';

describe('statusLabel', () => {
  it('says each status of the spec in words, the final ones from the table of outcomes', () => {
    const words = ['QUOTED', 'COMMITTED', 'EXECUTING', 'SUCCEEDED', 'FAILED', 'ABORTED', 'REFUNDED', 'INVALID'].map(statusLabel);
    expect(words).toEqual(['Quoted', 'Committed', 'Executing', 'Succeeded', 'Failed', 'Aborted', 'Refunded', 'Invalid']);
  });

  it('"Checking…" before the first answer; a value the spec does not know is shown as it came', () => {
    expect(statusLabel(undefined)).toBe('Checking…');
    expect(statusLabel('PAUSED')).toBe('PAUSED');
    expect(statusLabel('toString')).toBe('toString');
  });

  it('names the legs', () => {
    expect((['deposit', 'origin', 'destination', 'refund'] as const).map(legName)).toEqual(['Deposit', 'Origin', 'Destination', 'Refund']);
  });
});
