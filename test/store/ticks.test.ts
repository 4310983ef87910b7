import { describe, expect, it } from 'vitest';
import type { Settings } from '@/lib/store';
import { newTickToken, stampTicks, tickOf } from '@/lib/store/ticks';

const A = `0x${'a1'.repeat(20)}`;
const B = `0x${'b2'.repeat(20)}`;
const base: Settings = { baseUrl: 'https://svc.example.test', accessKey: 'k' };

describe('tick tokens', () => {
  it('a newly ticked address gets a token; one ticked before keeps it; an unticked one loses it; a re-tick gets a new one', () => {
    let n = 0;
    const token = () => `t${++n}`;
    const first = stampTicks(undefined, { ...base, autoTrackAddresses: [A.toUpperCase().replace('0X', '0x')] }, token);
    expect(first.autoTrackTicks).toEqual([`${A}:t1`]);
    const second = stampTicks(first, { ...base, autoTrackAddresses: [A, B] }, token);
    expect([tickOf(second, A), tickOf(second, B)]).toEqual(['t1', 't2']);
    const unticked = stampTicks(second, { ...base, autoTrackAddresses: [B] }, token);
    expect(tickOf(unticked, A)).toBeUndefined();
    const again = stampTicks(unticked, { ...base, autoTrackAddresses: [A, B] }, token);
    expect([tickOf(again, A), tickOf(again, B)]).toEqual(['t3', 't2']);
    // Nothing ticked: no field at all.
    expect(stampTicks(again, { ...base, autoTrackAddresses: [] }, token)).not.toHaveProperty('autoTrackTicks');
  });

  it('an address ticked before tokens existed keeps none; a token is 8 base-36 characters', () => {
    expect(stampTicks({ ...base, autoTrackAddresses: [A] }, { ...base, autoTrackAddresses: [A] }, () => 'x')).not.toHaveProperty(
      'autoTrackTicks',
    );
    expect(newTickToken(() => 0.5)).toMatch(/^[0-9a-z]{8}$/);
    expect(tickOf({ autoTrackTicks: 'broken' as never }, A)).toBeUndefined();
  });
});
