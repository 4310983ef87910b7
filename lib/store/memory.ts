/**
 * In-memory IntentStore and TrackerStateStore with the same contract as the IndexedDB ones (an update is atomic
 * because it runs synchronously). For running the tracker outside a browser: the property campaign and the benchmark.
 */
import type { IntentStore, TrackedIntent, TrackerState, TrackerStateStore } from './index';

/** Tracked intents in a Map. */
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
  async updateMany(intentIds: readonly string[], fn: (id: string, c: TrackedIntent | undefined) => TrackedIntent | undefined) {
    // Every decision first, then the writes: a throwing `fn` writes nothing, as the IndexedDB transaction aborts.
    const next = intentIds.map((id) => fn(id, this.map.get(id)));
    return intentIds.map((id, i) => {
      const n = next[i];
      if (n) this.map.set(id, n);
      return n ?? this.map.get(id);
    });
  }
  async remove(intentId: string) {
    this.map.delete(intentId);
  }
}

/** The tracker-wide state in a field. */
export class MemoryStateStore implements TrackerStateStore {
  state: TrackerState | undefined;
  async get() {
    return this.state;
  }
  async set(state: TrackerState) {
    this.state = state;
  }
}
