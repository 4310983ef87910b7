/**
 * Delivery of the final notification, exactly once per intent. The final status and `notification: 'pending'` are
 * written in one record update (by the engine); delivery then shows the notification and records `shown`. A worker
 * that dies between the two finds the record `pending` on start-up and asks the notifier whether that notification
 * was already shown before showing it.
 */
import type { TrackedIntent } from '../store';
import type { Clock } from '../time/clock';
import type { IntentMirror } from './mirror';
import type { Notifier } from './types';

/** Shows pending notifications, one at a time per intent. */
export class Delivery {
  readonly #delivering = new Set<string>();

  constructor(
    readonly mirror: IntentMirror,
    readonly notifier: Notifier,
    readonly clock: Clock,
  ) {}

  /** Shows the pending notification of an intent once, then records it as shown. Never throws. */
  async deliver(intentId: string): Promise<void> {
    if (this.#delivering.has(intentId)) return;
    this.#delivering.add(intentId);
    try {
      const intent: TrackedIntent | undefined = this.mirror.get(intentId);
      if (intent?.notification !== 'pending') return;
      const content = (await this.notifier.exists(intentId)) ? undefined : await this.notifier.show(intent);
      await this.mirror.write(intentId, (t) =>
        t ? { ...t, notification: 'shown', notifiedAt: this.clock.now(), ...(content ? { notified: content } : {}) } : undefined,
      );
    } catch (err) {
      console.error('notification failed', intentId, err instanceof Error ? err.message : err);
    } finally {
      this.#delivering.delete(intentId);
    }
  }
}
