// @vitest-environment happy-dom
/**
 * Opening a receipt from the keyboard, before the browser paints the next frame: the URL (`#intent=<id>`), the focus
 * on Back and the Escape key are all in place in the commit that shows the receipt. Preact runs passive effects
 * (`useEffect`) only after the next frame, which a loaded machine or a hidden page can delay for long; the frame is
 * held here (Preact's `options.requestAnimationFrame`) so that anything left to a passive effect is seen missing.
 * CI saw it in the Chromium e2e (`panel.e2e.ts`): focus on Back, URL still `popup.html#`.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import { IDBFactory } from 'fake-indexeddb';
import { options } from 'preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { useEscapeBack } from '@/entrypoints/popup/hooks/useEscapeBack';
import { useOpenedReceipt } from '@/entrypoints/popup/hooks/useOpenedReceipt';
import type { TrackedIntent } from '@/lib/store';

const ID = `0x${'ab'.repeat(32)}`;

/** Frames the page would paint, held until `paint()`; Preact's passive effects wait for one. */
let held: (() => void)[] = [];
const paint = () => {
  const now = held;
  held = [];
  for (const f of now) f();
};
/** Lets Preact's debounced render (a microtask) and its layout effects run, without a frame. */
const commit = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * Browsers never fire `hashchange` for `history.replaceState` (HTML, "URL and history update steps"); happy-dom does,
 * a timer later. Those events are stopped here, so that the page sees what it would in Chromium and Firefox.
 */
const replaced = new Set<string>();
const realReplaceState = history.replaceState.bind(history);
history.replaceState = (state: unknown, unused: string, url?: string | URL | null) => {
  realReplaceState(state, unused, url);
  replaced.add(location.href);
};
window.addEventListener(
  'hashchange',
  (e) => {
    if (replaced.delete((e as HashChangeEvent).newURL)) e.stopImmediatePropagation();
  },
  { capture: true },
);

beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  fakeBrowser.reset();
  (fakeBrowser.permissions as unknown as { contains: () => Promise<boolean> }).contains = async () => false;
  (fakeBrowser.runtime as unknown as { sendMessage: () => Promise<unknown> }).sendMessage = async () => ({ ok: true });
  history.replaceState(null, '', '#');
  const { createIntentStore } = await import('@/lib/store');
  const intent: TrackedIntent = {
    intentId: ID,
    addedAt: Date.now(),
    lastStates: [],
    phase: 'tracking',
    notification: 'none',
  };
  await createIntentStore().put(intent);
});
afterEach(() => {
  options.requestAnimationFrame = undefined;
  paint();
  cleanup();
});

/**
 * The popup's two receipt hooks as App uses them (App.tsx: `useOpenedReceipt(intents)`, `useEscapeBack(openedId,
 * close)`), around the same markup: a row button in `li[data-intent-id]`, a receipt with its Back button first. Alone,
 * so that nothing else re-renders the component (a re-render runs its pending passive effects early and hides the lag).
 */
function Harness(props: { intents: TrackedIntent[] }) {
  const { opened, open, close } = useOpenedReceipt(props.intents);
  useEscapeBack(opened?.intentId, close);
  if (opened) {
    return (
      <section class="receipt" aria-labelledby="receipt-title">
        <div class="receipt-head">
          <button type="button" onClick={close}>
            ← Back
          </button>
        </div>
        <h2 id="receipt-title">{opened.intentId}</h2>
      </section>
    );
  }
  return (
    <ul>
      {props.intents.map((i) => (
        <li key={i.intentId} data-intent-id={i.intentId}>
          <button type="button" onClick={() => open(i.intentId)}>{`Open receipt of intent ${i.intentId}`}</button>
        </li>
      ))}
    </ul>
  );
}

describe('a receipt opened from the keyboard', () => {
  for (const [name, view] of [
    [
      'the popup',
      async () => {
        const { App } = await import('@/entrypoints/popup/App');
        render(<App />);
      },
    ],
    [
      'its receipt hooks alone',
      async () => {
        const { createIntentStore } = await import('@/lib/store');
        render(<Harness intents={await createIntentStore().list()} />);
      },
    ],
  ] as const) {
    it(`${name}: has its URL, the focus on Back and Escape working before the next frame is painted`, async () => {
      await view();
      const row = await screen.findByRole('button', { name: new RegExp(`^Open receipt of intent ${ID}`) });
      await waitFor(() => expect(held).toEqual([]));
      // From here on no frame is painted.
      options.requestAnimationFrame = (f) => {
        held.push(f);
      };
      row.focus();
      // Dispatched as the browser does, not through testing-library's fireEvent: its act() would run every effect.
      row.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      await commit();
      expect(document.querySelector('#receipt-title')).not.toBeNull();
      expect(document.activeElement?.textContent).toBe('← Back');
      expect(location.hash).toBe(`#intent=${ID}`);

      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
      await commit();
      expect(document.querySelector('#receipt-title')).toBeNull();
      expect(location.hash).toBe('');
      expect(document.activeElement?.textContent).toMatch(new RegExp(`^Open receipt of intent ${ID}`));
    });
  }
});
