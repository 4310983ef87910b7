import { useCallback, useEffect, useState } from 'preact/hooks';
import { isChangedMessage } from '@/lib/messages';
import { type CalmState, EMPTY_CALM } from '@/lib/store';
import { calmStateStore } from '../stores';
import { send } from '../worker-messages';

/** Muted intents and the snooze, as the popup shows them, with the commands that change them (through the worker). */
export interface CalmControls {
  calm: CalmState;
  /** Mutes or unmutes one intent's notifications. */
  setMuted(intentId: string, muted: boolean): void;
  /** Snoozes every notification for an hour. */
  snooze(): void;
  /** Ends the snooze now. */
  endSnooze(): void;
}

/** Reads the calm state when the popup opens and whenever the worker says something changed. */
export function useCalmState(): CalmControls {
  const [calm, setCalm] = useState<CalmState>(EMPTY_CALM);
  const reload = useCallback(() => void calmStateStore.get().then(setCalm), []);
  useEffect(() => {
    reload();
    const onMessage = (msg: unknown) => {
      if (isChangedMessage(msg)) reload();
    };
    browser.runtime.onMessage.addListener(onMessage);
    return () => browser.runtime.onMessage.removeListener(onMessage);
  }, [reload]);
  return {
    calm,
    setMuted: (intentId, muted) => void send({ type: 'mute', intentId, muted }).then(reload),
    snooze: () => void send({ type: 'snooze' }).then(reload),
    endSnooze: () => void send({ type: 'snooze', end: true }).then(reload),
  };
}
