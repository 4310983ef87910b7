// @vitest-environment happy-dom
/**
 * The welcome page as a new user reads it (fakeBrowser, fake-indexeddb): the three sentences and the picture in each
 * language, the permission prompt explained before Save, the first intent tracked from the paste box (the worker's
 * typed answer), the worker's words for text that is no intentId, and the shortcuts as bound.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Welcome } from '@/entrypoints/welcome/Welcome';
import { readLocale, useLocale } from '../i18n/fake-i18n';

const ID = `0x${'3c'.repeat(32)}`;

/** The worker's answers to `track` (what the page sends), and the commands as Chrome has them bound. */
function worker(answer: (message: { type: string; intentId?: string }) => unknown) {
  const sent: unknown[] = [];
  Object.assign(fakeBrowser.runtime, {
    sendMessage: async (m: { type: string; intentId?: string }) => {
      sent.push(m);
      return answer(m);
    },
  });
  Object.assign(fakeBrowser.commands, {
    getAll: async () => [
      { name: '_execute_action', shortcut: 'Alt+Shift+I', description: '' },
      { name: 'track-clipboard', shortcut: 'Alt+Shift+V', description: 'Track the intent ID on the clipboard' },
    ],
  });
  return sent;
}

describe('welcome page', () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(() => {
    cleanup();
    useLocale('en');
  });

  for (const locale of ['en', 'es', 'zh_CN']) {
    it(`says what the extension does in three sentences and one picture, and explains the prompt first (${locale})`, () => {
      useLocale(locale);
      worker(() => undefined);
      const m = readLocale(locale);
      render(<Welcome />);
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(m.welcomeTitle!.message);
      const intro = document.querySelector('.welcome-intro')!;
      expect([...intro.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
        m.welcomeWhat1!.message,
        m.welcomeWhat2!.message,
        m.welcomeWhat3!.message,
      ]);
      expect(screen.getAllByRole('img')).toHaveLength(1);
      expect(screen.getByRole('img').getAttribute('aria-label')).toBe(m.welcomePictureAlt!.message);
      expect(screen.getByTestId('permission-note').textContent).toBe(m.connPermissionNote!.message);
    });
  }

  it('tracks the first intent from the paste box and says so; the shortcuts as bound', async () => {
    const sent = worker((m) => (m.type === 'track' ? { ok: true, added: true, intentId: m.intentId!.trim() } : undefined));
    render(<Welcome />);
    fireEvent.input(screen.getByLabelText('Intent ID'), { target: { value: `  ${ID} ` } });
    fireEvent.click(screen.getByRole('button', { name: 'Track' }));
    await waitFor(() =>
      expect(screen.getByTestId('track-status').textContent).toBe(
        'Tracking intent 0x3c3c…3c3c. The toolbar button lists it, and you will be told when it ends.',
      ),
    );
    expect(sent).toContainEqual({ type: 'track', intentId: `  ${ID} ` });
    expect(screen.getByRole('link', { name: 'Open the tracked list' }).getAttribute('href')).toBe(
      `${fakeBrowser.runtime.getURL('/popup.html')}#intent=${ID}`,
    );
    await waitFor(() => expect(screen.getByTestId('shortcuts').querySelectorAll('div')).toHaveLength(2));
    expect([...screen.getByTestId('shortcuts').querySelectorAll('kbd')].map((k) => k.textContent)).toEqual(['Alt+Shift+I', 'Alt+Shift+V']);
  });

  it('tracks a pasted list in one request, says the counts, and leaves what is not valid in the box', async () => {
    const other = `0x${'4d'.repeat(32)}`;
    const sent = worker((m) => (m.type === 'track-many' ? { ok: true, added: 1, already: 1, invalid: [], invalidCount: 0 } : undefined));
    render(<Welcome />);
    fireEvent.input(screen.getByLabelText('Intent ID'), { target: { value: `${ID}\n${other},0xnope` } });
    fireEvent.click(screen.getByRole('button', { name: 'Track' }));
    await waitFor(() => expect(screen.getByTestId('track-status').textContent).toContain('Added 1, already tracked 1, not valid 1.'));
    expect(sent).toContainEqual({ type: 'track-many', intents: [{ intentId: ID }, { intentId: other }] });
    await waitFor(() => expect((screen.getByLabelText('Intent ID') as HTMLTextAreaElement).value).toBe('0xnope'));
    expect(screen.getByRole('link', { name: 'Open the tracked list' }).getAttribute('href')).toBe(
      fakeBrowser.runtime.getURL('/popup.html'),
    );
  });

  it('says what is wrong with the pasted text in the worker’s words', async () => {
    // The worker's answer to text that is no intentId (lib/worker/track.ts, through parseIntentId).
    worker(() => ({ ok: false, message: 'An intent ID has no spaces.' }));
    render(<Welcome />);
    fireEvent.input(screen.getByLabelText('Intent ID'), { target: { value: 'not an id' } });
    fireEvent.click(screen.getByRole('button', { name: 'Track' }));
    await waitFor(() => expect(screen.getByTestId('track-status').textContent).toBe('An intent ID has no spaces.'));
  });
});
