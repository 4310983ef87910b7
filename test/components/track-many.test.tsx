// @vitest-environment happy-dom
/**
 * Pasting many intentIds at once in the popup's Track box: one `track-many` request with the valid ids (any
 * separators, repeats once), the counts said, the ids that are not valid left in the box; a failed request keeps
 * the whole paste; a paste over the bound sends nothing and keeps it.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { MAX_TRACK_MANY } from '@/lib/api/intent-list';

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** The worker: `answer` for `track-many`, ok for the rest; every request recorded. */
function worker(answer: (m: { intents: Array<{ intentId: string }> }) => unknown) {
  const sent: Array<{ type: string; intents?: Array<{ intentId: string }> }> = [];
  (fakeBrowser.permissions as unknown as { contains: () => Promise<boolean> }).contains = async () => false;
  (fakeBrowser.runtime as unknown as { sendMessage: (m: never) => Promise<unknown> }).sendMessage = async (m: {
    type: string;
    intents: Array<{ intentId: string }>;
  }) => {
    sent.push(m);
    return m.type === 'track-many' ? answer(m) : { ok: true };
  };
  return sent;
}

async function popup() {
  const { App } = await import('@/entrypoints/popup/App');
  render(<App />);
  const box = (await screen.findByLabelText('Intent ID')) as HTMLTextAreaElement;
  const paste = (text: string) => {
    fireEvent.input(box, { target: { value: text } });
    fireEvent.click(screen.getByRole('button', { name: 'Track', exact: true } as never));
  };
  return { box, paste, message: () => document.querySelector('.track-form .message')?.textContent ?? '' };
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  fakeBrowser.reset();
});
afterEach(cleanup);

describe('popup: pasting many intentIds', () => {
  it('sends the valid ones in one request, says the counts, and leaves only the invalid ones in the box', async () => {
    const sent = worker((m) => ({ ok: true, added: m.intents.length - 1, already: 1, invalid: [], invalidCount: 0 }));
    const { box, paste, message } = await popup();
    paste(`${hex(1)}\n${hex(2)}, ${hex(3)}\t${hex(1)}; 0x12 "${hex(4)}"`);
    await waitFor(() => expect(message()).toContain('Added 3, already tracked 1, not valid 1.'));
    expect(sent.filter((m) => m.type === 'track-many')).toEqual([
      { type: 'track-many', intents: [1, 2, 3, 4].map((n) => ({ intentId: hex(n) })) },
    ]);
    expect(message()).toContain('Not valid: “0x12”');
    expect(message()).toContain('What was not tracked is left in the box.');
    await waitFor(() => expect(box.value).toBe('0x12'));
    expect(document.querySelector('.track-form .message')?.getAttribute('role')).toBe('alert');
  });

  it('empties the box when every id was tracked', async () => {
    worker((m) => ({ ok: true, added: m.intents.length, already: 0, invalid: [], invalidCount: 0 }));
    const { box, paste, message } = await popup();
    paste(`${hex(1)}\n${hex(2)}`);
    await waitFor(() => expect(message()).toBe('Added 2, already tracked 0, not valid 0.'));
    await waitFor(() => expect(box.value).toBe(''));
  });

  it('keeps the whole paste when the worker does not answer', async () => {
    worker(() => undefined);
    const { box, paste, message } = await popup();
    const text = `${hex(1)}\n${hex(2)}`;
    paste(text);
    await waitFor(() => expect(message()).toContain('What was not tracked is left in the box.'));
    expect(box.value).toBe(text);
  });

  it('sends nothing for a paste over the bound, says the bound, and keeps it', async () => {
    const sent = worker(() => ({ ok: true, added: 0, already: 0, invalid: [], invalidCount: 0 }));
    const { box, paste, message } = await popup();
    const text = Array.from({ length: MAX_TRACK_MANY + 1 }, (_, i) => hex(i)).join('\n');
    paste(text);
    await waitFor(() => expect(message()).toContain('paste at most 10,000 intent IDs'));
    expect(sent.some((m) => m.type === 'track-many')).toBe(false);
    expect(box.value).toBe(text);
  });
});
