/**
 * The user's Refresh requests waiting for their read (docs/tracking.md "The tracker's four slots": a real
 * GetIntentReceipt through the sweeper's slot): who waits for which intent, in the order asked.
 */

/** Intents the user asked to read now, and who waits for each answer. */
export class RefreshWaiters {
  readonly #waiting = new Map<string, Array<() => void>>();

  /** Resolves once {@link RefreshWaiters.settle} is called for `intentId` (its answer or error written, or no read). */
  wait(intentId: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const waiters = this.#waiting.get(intentId) ?? [];
      waiters.push(resolve);
      this.#waiting.set(intentId, waiters);
    });
  }

  /** The intents waited for, oldest request first. */
  ids(): string[] {
    return [...this.#waiting.keys()];
  }

  /** Lets everyone waiting for `intentId` go on. */
  settle(intentId: string): void {
    const waiters = this.#waiting.get(intentId);
    this.#waiting.delete(intentId);
    for (const resolve of waiters ?? []) resolve();
  }

  /** Lets everyone go on (nothing can be sent now, or the engine stopped). */
  settleAll(): void {
    for (const id of this.ids()) this.settle(id);
  }
}
