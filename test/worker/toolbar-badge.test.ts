/** The toolbar badge on fakeBrowser: what it shows, and one update per burst of changes. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { TrackedIntent, TrackerState } from '@/lib/store';
import { BADGE_COALESCE_MS, createToolbarBadge } from '@/lib/worker/toolbar-badge';

const intent = (n: number, over: Partial<TrackedIntent>): TrackedIntent => ({
  intentId: `0x${String(n).repeat(64)}`,
  addedAt: n,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
  ...over,
});

describe('createToolbarBadge', () => {
  let intents: TrackedIntent[];
  let state: TrackerState;
  beforeEach(() => {
    fakeBrowser.reset();
    intents = [];
    state = {};
  });
  afterEach(() => vi.useRealTimers());
  const badge = () => createToolbarBadge(fakeBrowser as never, async () => ({ intents, state }));

  it('shows the number in flight, then unseen failures, then "!" for a rejected key', async () => {
    const b = badge();
    intents = [intent(1, {}), intent(2, {}), intent(3, { phase: 'final', status: 'SUCCEEDED' })];
    await b.update();
    expect(await fakeBrowser.action.getBadgeText({})).toBe('2');
    expect(await fakeBrowser.action.getTitle({})).toBe('Svc Intent Tracker — 2 intents in flight');
    intents.push(intent(4, { phase: 'final', status: 'FAILED' }));
    await b.update();
    expect(await fakeBrowser.action.getBadgeText({})).toBe('1');
    state = { keyRejected: { kind: 'key-rejected', message: 'The service rejected the access key.', at: 1 } };
    await b.update();
    expect(await fakeBrowser.action.getBadgeText({})).toBe('!');
  });

  it('makes one update for a burst of changes, after the burst', async () => {
    vi.useFakeTimers();
    const b = badge();
    const setText = vi.spyOn(fakeBrowser.action, 'setBadgeText');
    intents = [intent(1, {})];
    for (let i = 0; i < 10; i++) b.schedule();
    expect(setText).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(BADGE_COALESCE_MS);
    expect(setText).toHaveBeenCalledTimes(1);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('1');
    b.schedule();
    await vi.advanceTimersByTimeAsync(BADGE_COALESCE_MS);
    expect(setText).toHaveBeenCalledTimes(2);
  });
});
