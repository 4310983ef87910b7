/**
 * An in-memory IntentStore and TrackerStateStore with the same contract as the IndexedDB ones (updates are atomic
 * because they are synchronous). Used by the property campaign and the benchmark.
 */
import type { IntentStore, TrackedIntent, TrackerState, TrackerStateStore } from '@/lib/store';

export class MemoryStore implements IntentStore {
  readonly map = new Map<string, TrackedIntent>();
  async get(intentId: string) {
    return this.map.get(intentId);
  }
  async list() {
    return [...this.map.values()].sort((a, b) => b.addedAt - a.addedAt);
  }
  async put(intent: TrackedIntent) {
    this.map.set(intent.intentId, intent);
  }
  async update(intentId: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) {
    const next = fn(this.map.get(intentId));
    if (next) this.map.set(intentId, next);
    return next ?? this.map.get(intentId);
  }
  async remove(intentId: string) {
    this.map.delete(intentId);
  }
}

export class MemoryStateStore implements TrackerStateStore {
  state: TrackerState | undefined;
  async get() {
    return this.state;
  }
  async set(state: TrackerState) {
    this.state = state;
  }
}
