/** Information notifications (fakeBrowser): the message under the extension's name, with its icon. */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { intentIdsOfNotification } from '@/lib/notify/browser';
import { createInformer, INFO_PREFIX } from '@/lib/notify/info';

describe('createInformer', () => {
  beforeEach(() => fakeBrowser.reset());

  it('shows a basic notification with the message, whose id names no intent', async () => {
    const id = await createInformer(fakeBrowser as never)('Tracking intent 0x1234…abcd.');
    expect(id?.startsWith(INFO_PREFIX)).toBe(true);
    expect(intentIdsOfNotification(id!)).toEqual([]);
    const all = (
      fakeBrowser.notifications as unknown as { getAllCreateOptions(): Record<string, Record<string, string>> }
    ).getAllCreateOptions();
    expect(all[id!]).toMatchObject({
      type: 'basic',
      title: 'Svc Intent Tracker',
      message: 'Tracking intent 0x1234…abcd.',
      iconUrl: fakeBrowser.runtime.getURL('/icon/128.png'),
    });
  });
});
