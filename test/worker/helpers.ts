/** Shared set-up of the worker-service tests: a real tracker on an in-memory store, and notifications created. */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { SvcClient } from '@/lib/api/client';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { realClock } from '@/lib/time/clock';
import { Tracker } from '@/lib/tracker/engine';
import type { ReceiptTransport } from '@/lib/tracker/types';

/**
 * A tracker on an in-memory store (`store`, default a new one); with no transport it calls no service (intents wait
 * "not configured").
 */
export function memoryTracker<S extends MemoryStore = MemoryStore>(
  transport: () => Promise<ReceiptTransport | undefined> = async () => undefined,
  store: S = new MemoryStore() as S,
) {
  const tracker = new Tracker({
    store,
    stateStore: new MemoryStateStore(),
    clock: realClock,
    transport,
    notifier: { show: async () => undefined, exists: async () => false },
  });
  return { store, tracker };
}

/** The messages of the notifications created on fakeBrowser so far. */
export function notificationMessages(): string[] {
  const all = (
    fakeBrowser.notifications as unknown as { getAllCreateOptions(): Record<string, { message: string }> }
  ).getAllCreateOptions();
  return Object.values(all).map((n) => n.message);
}

/**
 * The two operations the ETA baseline finder calls (lib/worker/eta-baseline.ts): GetIntent answers `intentAnswer(intentId)`,
 * GetIntentHistory an empty page; `asked` logs each operation's name in order.
 */
export function etaClient(intentAnswer: (intentId: string) => unknown): {
  client: Pick<SvcClient, 'getIntent' | 'getIntentHistory'>;
  asked: string[];
} {
  const asked: string[] = [];
  const client: Pick<SvcClient, 'getIntent' | 'getIntentHistory'> = {
    getIntent: (async ({ intentId }: { intentId: string }) => {
      asked.push('GetIntent');
      return intentAnswer(intentId);
    }) as never,
    getIntentHistory: (async () => {
      asked.push('GetIntentHistory');
      return { intents: [] };
    }) as never,
  };
  return { client, asked };
}

/**
 * An {@link etaClient} whose GetIntent first waits for `wait(intentId)` (and throws what it throws), then answers an
 * estimate of 60 s: `order` logs the intents asked, in turn; `peak()` is the most look-ups under way at once.
 */
export function pacedEtaClient(wait: (intentId: string) => Promise<void>) {
  const order: string[] = [];
  let inFlight = 0;
  let peak = 0;
  const { client } = etaClient(async (intentId) => {
    order.push(intentId);
    peak = Math.max(peak, ++inFlight);
    try {
      await wait(intentId);
    } finally {
      inFlight--;
    }
    return { intent: { intentId, quote: { estimatedDuration: 60 } } };
  });
  return { client, order, peak: () => peak };
}
