// @vitest-environment happy-dom
/** The popup says when records an earlier version saved could not be read (set aside by the worker, lib/store/checked.ts). */
import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  fakeBrowser.reset();
});
afterEach(cleanup);

describe('popup', () => {
  it('shows a notice with the number of records set aside', async () => {
    const { createAsideRecords } = await import('@/lib/store');
    await createAsideRecords().add([
      { key: `0x${'1'.repeat(64)}`, raw: { phase: 7 }, reason: 'phase: invalid', at: 1 },
      { key: 'garbage', raw: 42, reason: 'record: not an object', at: 1 },
    ]);
    // What the popup asks of the browser besides storage: no clipboard permission, the worker answers ok.
    (fakeBrowser.permissions as unknown as { contains: () => Promise<boolean> }).contains = async () => false;
    (fakeBrowser.runtime as unknown as { sendMessage: () => Promise<unknown> }).sendMessage = async () => ({ ok: true });
    const { App } = await import('@/entrypoints/popup/App');
    render(<App />);
    await waitFor(() => expect(screen.getByTestId('unreadable-records').textContent).toContain('2 tracked intent record(s)'));
    expect(screen.getByTestId('unreadable-records').textContent).toContain('kept aside');
  });
});
