import { useEffect, useState } from 'preact/hooks';
import type { IntentDetails } from '@/lib/messages';
import { send } from '../worker-messages';

/**
 * The open receipt's details (fee total, token prices, holdings of the intent address), asked of the worker when a
 * receipt opens and again when its status changes (a final status brings the holdings). Undefined until answered
 * or when the worker could not tell.
 */
export function useIntentDetails(intentId: string | undefined, status: string | undefined): IntentDetails | undefined {
  const [details, setDetails] = useState<{ intentId: string; data: IntentDetails } | undefined>();
  useEffect(() => {
    if (!intentId) return;
    let live = true;
    void send({ type: 'details', intentId }).then((reply) => {
      if (live && reply.ok) setDetails({ intentId, data: reply.data });
    });
    return () => {
      live = false;
    };
  }, [intentId, status]);
  return details && details.intentId === intentId ? details.data : undefined;
}
