import { useEffect, useState } from 'preact/hooks';
import { findIntentId } from '@/lib/api/intent-id';
import { hasClipboardPermission } from '../clipboard';
import { intentStore } from '../stores';

/**
 * An intentId found on the clipboard when the popup opens, offered for one-click tracking (never tracked without the
 * click); undefined when there is none or it is tracked already. Looked for only once the user has allowed reading
 * the clipboard (the first "Track from clipboard" asks): opening the popup never prompts.
 */
export function useClipboardSuggestion(trackedIds: ReadonlySet<string>): { suggestion: string | undefined; dismiss(): void } {
  const [suggestion, setSuggestion] = useState<string | undefined>();
  useEffect(() => {
    void hasClipboardPermission()
      .then((allowed) => (allowed ? navigator.clipboard.readText() : ''))
      .then(async (text) => {
        const id = findIntentId(text);
        if (id && !(await intentStore.get(id))) setSuggestion(id);
      })
      .catch(() => {});
  }, []);
  return {
    suggestion: suggestion && !trackedIds.has(suggestion) ? suggestion : undefined,
    dismiss: () => setSuggestion(undefined),
  };
}
