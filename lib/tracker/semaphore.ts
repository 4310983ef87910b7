/**
 * A counting semaphore with a FIFO queue: callers get slots in the order they asked, which makes loops take
 * fair turns at the connection limit.
 */
export class Semaphore {
  #free: number;
  readonly #queue: Array<() => void> = [];

  /** @param size number of slots (≥ 1). */
  constructor(size: number) {
    if (!(size >= 1)) throw new RangeError('A semaphore needs at least one slot');
    this.#free = size;
  }

  /** Slots free now. */
  get free(): number {
    return this.#free;
  }

  /**
   * Waits for a slot. Resolves true once the caller holds one (release it with {@link Semaphore.release}), or false
   * when `signal` aborts first (no slot is held then).
   */
  acquire(signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      };
      const onAbort = () => {
        const i = this.#queue.indexOf(grant);
        if (i >= 0) this.#queue.splice(i, 1);
        resolve(false);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(grant);
    });
  }

  /** Gives a slot back; the longest waiter gets it. */
  release(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#free++;
  }
}
