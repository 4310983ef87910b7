import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { ErrorMessage } from '@/lib/format/errors';
import { withRow } from '@/lib/query/tracked-row';
import type { TrackedIntent } from '@/lib/store';
import { receiptCache } from '../stores';
import { send } from '../worker-messages';
import { readWholeRecord } from './useTrackedIntents';

/** An intent whose receipt is open: the receipt shown (cached first), and the error of the last read. */
interface Opened {
  intentId: string;
  receipt?: IntentReceipt;
  error?: ErrorMessage;
}

/** The receipt view's state. */
export interface OpenedReceipt {
  /**
   * The open intent, or undefined when the tabs show. `tracked` is its record when it is tracked: the whole record
   * once read (brought up to date by a newer row while the newer whole record is read), its list row until then,
   * with `wholeRead` false: its receipt is not to be shown yet.
   */
  opened: (Opened & { tracked?: TrackedIntent; wholeRead?: false }) | undefined;
  /** Opens an intent's receipt; `receipt` (e.g. from a history row) shows until a fresh one arrives. */
  open(intentId: string, receipt?: IntentReceipt): void;
  /** Back to the tabs. */
  close(): void;
}

function intentFromHash(): string | undefined {
  const m = /^#intent=(.+)$/.exec(location.hash);
  return m?.[1] ? decodeURIComponent(m[1]) : undefined;
}

/**
 * Which receipt is open, kept in the URL (`#intent=<id>`, so a notification or the omnibox can open one). A tracked
 * intent shows the tracker's receipt and asks the tracker for a fresh check; any other shows the cached receipt
 * first, then one read through the worker.
 */
export function useOpenedReceipt(intents: TrackedIntent[] | undefined, firstRows?: TrackedIntent[]): OpenedReceipt {
  const [opened, setOpened] = useState<Opened | undefined>(() => {
    const id = intentFromHash();
    return id ? { intentId: id } : undefined;
  });

  useEffect(() => {
    const onHash = () => {
      const id = intentFromHash();
      setOpened(id ? { intentId: id } : undefined);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const openedId = opened?.intentId;
  // The URL follows in the same commit as the view (a layout effect, as the focus move to Back): a passive effect
  // waits for the next frame, which a loaded or hidden page may not paint for a while, and the URL lagged the view.
  useLayoutEffect(() => {
    history.replaceState(null, '', openedId ? `#intent=${encodeURIComponent(openedId)}` : '#');
  }, [openedId]);
  // Tracked: in the list, or in its first rows while the whole list is read (undefined: not known yet).
  const row = openedId ? (intents ?? firstRows)?.find((i) => i.intentId === openedId) : undefined;
  const isTracked = row ? true : intents === undefined ? undefined : false;
  useEffect(() => {
    if (!openedId || isTracked === undefined) return;
    if (isTracked) {
      void send({ type: 'refresh', intentId: openedId });
      return;
    }
    let live = true;
    void (async () => {
      const cached = await receiptCache.get(openedId);
      if (live && cached) setOpened((o) => (o?.intentId === openedId && !o.receipt ? { ...o, receipt: cached.receipt } : o));
      const reply = await send({ type: 'receipt', intentId: openedId });
      if (!live) return;
      setOpened((o) =>
        o?.intentId !== openedId
          ? o
          : reply.ok
            ? { intentId: openedId, receipt: reply.receipt ?? o.receipt }
            : { ...o, error: { text: reply.message, openSettings: reply.openSettings ?? false } },
      );
    })();
    return () => {
      live = false;
    };
  }, [openedId, isTracked]);

  // The whole record read for a row of the open intent: shown as it is for that row; for a newer row, brought up to
  // date by it (`withRow`) until the newer whole record comes. Before any, the view waits (`receipt` withheld): a row
  // lacks what the receipt view names (addresses), and would say less for a moment, or otherwise.
  const [whole, setWhole] = useState<{ row: TrackedIntent; record: TrackedIntent | undefined }>();
  useEffect(() => {
    if (!row) return;
    let live = true;
    void readWholeRecord(row.intentId)
      .then((record) => live && setWhole({ row, record }))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [row]);
  const read = row && whole?.row.intentId === row.intentId ? whole : undefined;
  const tracked = row && (read?.record ? (read.row === row ? read.record : withRow(read.record, row)) : row);
  const waiting = row !== undefined && read === undefined;
  return {
    opened: opened && { ...opened, tracked, ...(waiting ? { wholeRead: false } : {}) },
    open: (intentId, receipt) => setOpened({ intentId, ...(receipt ? { receipt } : {}) }),
    close: () => setOpened(undefined),
  };
}
