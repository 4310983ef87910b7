import { describe, expect, it } from 'vitest';
import { rememberedSettings, SettingsUnreadableError } from '@/lib/notify/settings-memory';
import { DEFAULT_NOTIFY, type NotifySettings } from '@/lib/store';

describe('rememberedSettings', () => {
  const off: NotifySettings = { ...DEFAULT_NOTIFY, succeeded: false, sound: false };
  it('a failed read with none before rejects; after a good read it gives that one; nothing saved is the defaults', async () => {
    let next: () => Promise<NotifySettings | undefined> = () => Promise.reject(new Error('refused'));
    const read = rememberedSettings(() => next());
    await expect(read()).rejects.toBeInstanceOf(SettingsUnreadableError);
    next = async () => off;
    expect(await read()).toEqual(off);
    next = () => Promise.reject(new Error('refused'));
    expect(await read()).toEqual(off);
    next = async () => undefined;
    expect(await read()).toEqual(DEFAULT_NOTIFY);
  });
});
