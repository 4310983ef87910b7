import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStore } from '@/lib/store/memory';
import { Delivery } from '@/lib/tracker/delivery';
import { IntentMirror } from '@/lib/tracker/mirror';
import { RecordingNotifier, trackedRecord as rec, VirtualClock } from './fakes';

const pending = (intentId: string, status = 'SUCCEEDED') => rec(intentId, { phase: 'final', status, notification: 'pending' });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Delivery', () => {
  it('shows a pending notification once and records what it said; not again, not when already shown', async () => {
    const store = new MemoryStore();
    const mirror = new IntentMirror(store);
    const notifier = new RecordingNotifier();
    const clock = new VirtualClock();
    const delivery = new Delivery(mirror, notifier, clock);
    await mirror.write('a', () => pending('a'));
    await Promise.all([delivery.deliver('a'), delivery.deliver('a')]);
    await delivery.deliver('a');
    expect(notifier.shown.map((t) => t.intentId)).toEqual(['a']);
    expect(mirror.get('a')).toMatchObject({
      notification: 'shown',
      notifiedAt: clock.now(),
      notified: { title: 'shown SUCCEEDED', message: 'a' },
    });
    // Already on screen (a worker died after showing it): recorded, not shown again.
    await mirror.write('b', () => pending('b', 'FAILED'));
    notifier.onScreen.add('b');
    await delivery.deliver('b');
    expect(notifier.shown).toHaveLength(1);
    expect(mirror.get('b')?.notification).toBe('shown');
    expect(mirror.get('b')?.notified).toBeUndefined();
  });

  it('shows nothing for an intent with no pending notification, or one no longer tracked', async () => {
    const mirror = new IntentMirror(new MemoryStore());
    const notifier = new RecordingNotifier();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const delivery = new Delivery(mirror, notifier, new VirtualClock());
    await mirror.write('tracking', () => rec('tracking', { status: 'EXECUTING' }));
    // Shown earlier and since gone from the screen (`exists` is false): still shown once only.
    await mirror.write('done', () => rec('done', { phase: 'final', status: 'FAILED', notification: 'shown', notifiedAt: 5 }));
    await delivery.deliver('tracking');
    await delivery.deliver('done');
    // Removed before its turn came: nothing to show, and no error either.
    await delivery.deliver('removed');
    expect(notifier.shown).toEqual([]);
    expect(mirror.get('tracking')?.notification).toBe('none');
    expect(mirror.get('done')).toMatchObject({ notification: 'shown', notifiedAt: 5 });
    expect(mirror.get('removed')).toBeUndefined();
    expect(error).not.toHaveBeenCalled();
  });

  it('a notifier that fails leaves the notification pending, says why, and the next delivery shows it', async () => {
    const mirror = new IntentMirror(new MemoryStore());
    const notifier = new RecordingNotifier();
    const show = notifier.show.bind(notifier);
    notifier.show = () => Promise.reject(new Error('no permission'));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await mirror.write('a', () => pending('a'));
    const delivery = new Delivery(mirror, notifier, new VirtualClock());
    await delivery.deliver('a');
    expect(mirror.get('a')?.notification).toBe('pending');
    expect(error).toHaveBeenCalledWith(expect.stringContaining('notification'), 'a', 'no permission');
    // The failed attempt is over: a later delivery of the same intent is not taken for one in progress.
    notifier.show = show;
    await delivery.deliver('a');
    expect(notifier.shown.map((t) => t.intentId)).toEqual(['a']);
    expect(mirror.get('a')?.notification).toBe('shown');
  });
});
