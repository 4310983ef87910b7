// @vitest-environment happy-dom
/**
 * Hostile tests of the options page's load (entrypoints/options/useSettingsForm.ts): "the form takes no input until
 * the saved settings are in it". Attacked with the saved settings' read rejecting and never answering.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { settingsStore } from '@/components/settings/save';
import { Options } from '@/entrypoints/options/Options';
import { createSettingsStore } from '@/lib/store';

const KEY = 'sk_options_hostile_4711';
const ME = `0x${'c3'.repeat(20)}`;
const URL_TYPED = 'https://svc.example.test';

function browserWithPermissions() {
  Object.assign(fakeBrowser.permissions, {
    request: async () => true,
    contains: async () => true,
    remove: async () => true,
  });
  Object.assign(fakeBrowser.commands, { getAll: async () => [] });
  Object.assign(fakeBrowser.runtime, {
    getManifest: () => ({
      manifest_version: 3,
      name: 'x',
      version: '1',
      permissions: ['storage', 'notifications'],
      optional_permissions: [],
    }),
  });
}

// A control inside a disabled fieldset is disabled (HTML's rule; happy-dom's `:disabled` does not apply it).
const disabled = (el: Element) => el.closest('fieldset[disabled]') !== null;

describe('options page: the saved settings cannot be read', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    browserWithPermissions();
    // What this device has saved: an address and the sound off.
    await createSettingsStore().set({
      baseUrl: URL_TYPED,
      accessKey: KEY,
      watchedAddresses: [ME],
      notify: { succeeded: true, failed: true, refunded: true, stuck: true, sound: false },
    });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('a read that rejects says why, takes no input, and reads again when asked', async () => {
    vi.spyOn(settingsStore, 'get').mockRejectedValueOnce(new DOMException('refused', 'UnknownError'));
    render(<Options />);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Could not read your saved settings: refused'));
    expect(disabled(screen.getByLabelText('Service URL'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Read again' }));
    await waitFor(() => expect(disabled(screen.getByLabelText('Service URL'))).toBe(false));
    expect((screen.getByLabelText('My addresses (optional)') as HTMLTextAreaElement).value).toBe(ME);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a read that never answers: nothing can be typed or saved meanwhile, so nothing saved is overwritten', async () => {
    vi.spyOn(settingsStore, 'get').mockReturnValueOnce(new Promise(() => {}));
    render(<Options />);
    await new Promise((r) => setTimeout(r, 300));
    expect(disabled(screen.getByLabelText('Service URL'))).toBe(true);
    expect(disabled(screen.getByRole('button', { name: 'Save' }))).toBe(true);
    expect(await createSettingsStore().get()).toMatchObject({ watchedAddresses: [ME] });
  });

  // A rejected read opened an empty form that took input: a Save replaced the saved watched addresses and
  // notification choices (synced to every device) with the empty form's.
  it('a read that rejects: a Save does not silently replace the saved addresses with the empty form’s', async () => {
    vi.spyOn(settingsStore, 'get').mockRejectedValueOnce(new DOMException('refused', 'UnknownError'));
    render(<Options />);
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeNull());
    fireEvent.input(screen.getByLabelText('Service URL'), { target: { value: URL_TYPED } });
    fireEvent.input(screen.getByLabelText('Access key'), { target: { value: KEY } });
    // A user cannot press a disabled Save; a submit that happens anyway must not save the empty form.
    expect(disabled(screen.getByRole('button', { name: 'Save' }))).toBe(true);
    expect(await createSettingsStore().get()).toMatchObject({ watchedAddresses: [ME], notify: { sound: false } });
  });

  // A read that never answered kept the whole form disabled and busy for ever, with nothing said.
  it('a read that never answers: the user is told within a few seconds, and can read again', async () => {
    vi.spyOn(settingsStore, 'get').mockReturnValueOnce(new Promise(() => {}));
    render(<Options />);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Still reading your saved settings'), { timeout: 5_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Read again' }));
    await waitFor(() => expect(disabled(screen.getByLabelText('Service URL'))).toBe(false));
    expect((screen.getByLabelText('My addresses (optional)') as HTMLTextAreaElement).value).toBe(ME);
  });
});
