// @vitest-environment happy-dom
/**
 * Importing an export from the popup: the preview says what the file holds (new, already tracked, ended, muted,
 * repeated rows) and lists each row that cannot be read; nothing is sent before "Import"; a refused file is said and
 * nothing is sent; a failed request keeps the preview.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { exportJson } from '@/lib/format/export';
import type { TrackedIntent } from '@/lib/store';

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const AT = Date.UTC(2026, 10, 21);
const record = (n: number, over: Partial<TrackedIntent> = {}): TrackedIntent => ({
  intentId: hex(n),
  addedAt: AT + n,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
  ...over,
});

/** The worker: `answer` for `track-many`, ok for the rest; every request recorded. */
function worker(answer: (m: { intents: Array<Record<string, unknown>> }) => unknown) {
  const sent: Array<{ type: string; intents?: Array<Record<string, unknown>> }> = [];
  (fakeBrowser.permissions as unknown as { contains: () => Promise<boolean> }).contains = async () => false;
  (fakeBrowser.runtime as unknown as { sendMessage: (m: never) => Promise<unknown> }).sendMessage = async (m: {
    type: string;
    intents: Array<Record<string, unknown>>;
  }) => {
    sent.push(m);
    return m.type === 'track-many' ? answer(m) : { ok: true };
  };
  (fakeBrowser.tabs as unknown as { getCurrent: () => Promise<unknown> }).getCurrent = async () => ({ id: 1 });
  return sent;
}

/** The popup with `tracked` in the store; `choose` picks a file as the file chooser would. */
async function popup(tracked: TrackedIntent[] = []) {
  const { createIntentStore } = await import('@/lib/store');
  const store = createIntentStore();
  for (const r of tracked) await store.put(r);
  const { App } = await import('@/entrypoints/popup/App');
  render(<App />);
  const input = (await screen.findByLabelText('Export file to import (JSON or CSV)')) as HTMLInputElement;
  await waitFor(() => expect(screen.queryByText('Loading…')).toBeNull());
  const choose = (name: string, text: string) => {
    Object.defineProperty(input, 'files', { value: [new File([text], name)], configurable: true });
    fireEvent.change(input);
  };
  return { choose };
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  fakeBrowser.reset();
});
afterEach(cleanup);

describe('popup: import', () => {
  it('previews a partly bad file, sends only on Import, and says what was done', async () => {
    const sent = worker((m) => ({ ok: true, added: m.intents.length - 1, already: 1, invalid: [], invalidCount: 0 }));
    const { choose } = await popup([record(1)]);
    const file = JSON.parse(
      exportJson(
        [record(1), record(2, { phase: 'final', status: 'SUCCEEDED', notification: 'shown', notifiedAt: AT }), record(3), record(3)],
        AT,
        new Set([hex(3)]),
      ),
    );
    file.intents.push({ intentId: 'bad id' }, { intentId: hex(9), notifiedAt: 'tomorrow' });
    choose('old-browser.json', JSON.stringify(file));
    const preview = await screen.findByTestId('import-preview');
    expect(within(preview).getByRole('heading').textContent).toBe('Import from old-browser.json');
    expect(preview.textContent).toContain('3 intents in the file: 2 new, 1 already tracked here (left as they are).');
    expect(preview.textContent).toContain('1 of the new ones had already ended: you will not be notified of them again.');
    expect(preview.textContent).toContain('1 of the new ones stay muted.');
    expect(preview.textContent).toContain('1 rows repeat an intent ID (the first is kept).');
    expect(preview.textContent).toContain('2 rows cannot be read and are not imported:');
    expect(
      within(preview)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Row 5: An intent ID has no spaces.', 'Row 6: notifiedAt is not valid.']);
    expect(sent.some((m) => m.type === 'track-many')).toBe(false);

    fireEvent.click(within(preview).getByRole('button', { name: 'Import 2 intents' }));
    await waitFor(() => expect(screen.getByTestId('import-message').textContent).toBe('Added 2, already tracked 1, not valid 2.'));
    const request = sent.find((m) => m.type === 'track-many')!;
    expect(request.intents).toEqual([
      { intentId: hex(1), muted: false, addedAt: AT + 1 },
      { intentId: hex(2), muted: false, addedAt: AT + 2, status: 'SUCCEEDED', notifiedAt: AT },
      { intentId: hex(3), muted: true, addedAt: AT + 3 },
    ]);
    expect(screen.queryByTestId('import-preview')).toBeNull();
  });

  it('says why a file is refused, and sends nothing', async () => {
    const sent = worker(() => ({ ok: true, added: 0, already: 0, invalid: [], invalidCount: 0 }));
    const { choose } = await popup();
    choose('contacts.csv', 'name,email\nAda,ada@example.com');
    await waitFor(() => expect(screen.getByTestId('import-message').textContent).toContain('This is not an export of this extension'));
    expect(screen.getByTestId('import-message').getAttribute('role')).toBe('alert');
    expect(screen.queryByTestId('import-preview')).toBeNull();
    expect(sent.some((m) => m.type === 'track-many')).toBe(false);
  });

  it('keeps the preview when the worker does not answer, so the import can be tried again', async () => {
    worker(() => undefined);
    const { choose } = await popup();
    // An id no other test stores (the popup's stores keep their first database across the tests of this file).
    choose('x.csv', `intentId\n${hex(77)}\n`);
    fireEvent.click(await screen.findByRole('button', { name: 'Import 1 intents' }));
    await waitFor(() => expect(screen.getByTestId('import-message').getAttribute('role')).toBe('alert'));
    expect(screen.getByTestId('import-preview')).toBeTruthy();
  });
});
