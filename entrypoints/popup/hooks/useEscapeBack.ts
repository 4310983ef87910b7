import { useLayoutEffect, useRef } from 'preact/hooks';

/**
 * Keyboard use of the receipt view: Escape goes back to the tabs (left alone when something already handled the key,
 * so one press does one thing; with no receipt open the browser's own Escape closes the popup). Opening a receipt
 * moves the focus to its Back button; going back returns it to that intent's row, or to the active tab. The focus
 * moves in a layout effect, right after the view is in the DOM and before the browser handles the next key, so no
 * keystroke lands on the page body in between.
 */
export function useEscapeBack(openedId: string | undefined, back: () => void): void {
  const backRef = useRef(back);
  backRef.current = back;
  const openRef = useRef(openedId);
  openRef.current = openedId;
  // One listener for the page's life, reading the open intent at the key press: a listener added when a receipt
  // opens (a passive effect, after the next frame) missed an Escape pressed as soon as the focus was on Back.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || openRef.current === undefined) return;
      e.preventDefault();
      backRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const previous = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const was = previous.current;
    previous.current = openedId;
    if (was === openedId) return;
    if (openedId !== undefined) {
      document.querySelector<HTMLElement>('.receipt-head button')?.focus();
    } else if (was !== undefined) {
      const row = document.querySelector<HTMLElement>(`li[data-intent-id="${CSS.escape(was)}"] button`);
      (row ?? document.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]'))?.focus();
    }
  }, [openedId]);
}
