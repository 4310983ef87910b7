/**
 * Chrome's offscreen document (reason CLIPBOARD): the MV3 worker has no DOM and cannot read the clipboard, so the
 * keyboard command asks this page. It can never be focused, so `navigator.clipboard.readText()` fails here; pasting
 * into a textarea works with the `clipboardRead` permission.
 */
import { OFFSCREEN_READ_CLIPBOARD } from '@/lib/commands';

browser.runtime.onMessage.addListener((message: unknown, sender, sendResponse: (text: string) => void) => {
  if (sender.id !== browser.runtime.id || (message as { type?: unknown } | null)?.type !== OFFSCREEN_READ_CLIPBOARD) return undefined;
  const area = document.getElementById('paste') as HTMLTextAreaElement;
  area.value = '';
  area.focus();
  document.execCommand('paste');
  const text = area.value;
  area.value = '';
  sendResponse(text);
  return true;
});
