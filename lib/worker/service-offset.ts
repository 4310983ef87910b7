/**
 * Publishes the worker's estimate of the service's clock (`lib/tracker/service-clock.ts`) for the extension pages,
 * which compare server timestamps with it ("2 min ago", ETAs, the History tab's `fromTime`; docs/tracking.md "One
 * clock: the service's").
 */
import type { ServiceOffsetStore } from '../store';
import type { ServiceClock } from '../tracker/service-clock';

/** The offset is written again once it moved by at least this much (ms) since the last write. */
export const OFFSET_STEP_MS = 1_000;

/**
 * Creates `publish()`: writes the clock's offset (ms, service minus local) to `store` once the clock has evidence and
 * the offset moved by at least `stepMs` since the last write (the first write: as soon as it is not 0). One write at a
 * time; a failed write is tried again at the next call. Never rejects.
 */
export function createServiceOffsetPublisher(
  clock: Pick<ServiceClock, 'offsetMs' | 'hasEvidence'>,
  store: Pick<ServiceOffsetStore, 'set'>,
  stepMs = OFFSET_STEP_MS,
): () => Promise<void> {
  let written = 0;
  let writing: Promise<void> | undefined;
  return async () => {
    if (writing || !clock.hasEvidence) return;
    const offset = Math.round(clock.offsetMs);
    if (Math.abs(offset - written) < stepMs) return;
    writing = store.set(offset).then(
      () => {
        written = offset;
      },
      () => {},
    );
    await writing;
    writing = undefined;
  };
}
