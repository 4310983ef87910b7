/** The "changed" broadcast: at once when quiet, then at most one per window, naming every intent changed meanwhile. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHANGED, type ChangedMessage } from '@/lib/messages';
import { CHANGE_COALESCE_MS, createChangeBroadcast } from '@/lib/worker/change-broadcast';

describe('createChangeBroadcast', () => {
  afterEach(() => vi.useRealTimers());

  it('sends the first change at once, and one message per window for a burst', async () => {
    vi.useFakeTimers();
    const sent: ChangedMessage[] = [];
    const b = createChangeBroadcast(async (m) => void sent.push(m));
    b.schedule('0xa');
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual([{ type: CHANGED, intentIds: ['0xa'] }]);
    // 500 changes in a burst (tracking 500 intents): one more message when the window closes, not 500.
    for (let i = 0; i < 500; i++) b.schedule(i % 2 ? '0xb' : '0xc');
    b.schedule('');
    await vi.advanceTimersByTimeAsync(CHANGE_COALESCE_MS - 1);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([
      { type: CHANGED, intentIds: ['0xa'] },
      { type: CHANGED, intentIds: ['0xc', '0xb'] },
    ]);
    // Quiet for a window: the next change goes at once again; the tracker state alone names no intent.
    await vi.advanceTimersByTimeAsync(CHANGE_COALESCE_MS);
    b.schedule('');
    await vi.advanceTimersByTimeAsync(0);
    expect(sent[2]).toEqual({ type: CHANGED, intentIds: [] });
  });

  it('ignores a failed send (no page open) and keeps broadcasting', async () => {
    vi.useFakeTimers();
    const send = vi.fn(async () => {
      throw new Error('Could not establish connection. Receiving end does not exist.');
    });
    const b = createChangeBroadcast(send);
    b.schedule('0xa');
    await vi.advanceTimersByTimeAsync(CHANGE_COALESCE_MS);
    b.schedule('0xb');
    await vi.advanceTimersByTimeAsync(CHANGE_COALESCE_MS);
    expect(send).toHaveBeenCalledTimes(2);
  });
});
