/**
 * The platform the background worker runs on: every source of non-determinism reaches the worker through this one
 * object (wall clock, monotonic clock, timers, the network, IndexedDB and the browser's extension APIs). The
 * extension passes {@link realPlatform}; the campaign passes a simulated one (virtual time, a simulated service,
 * fake-indexeddb with injected faults, fake browser APIs), so the production wiring runs unchanged under test.
 */
import type { browser as browserApi } from 'wxt/browser';
import { type Clock, realClock } from './time/clock';

/** The WebExtension API object (webextension-polyfill through WXT). */
export type Browser = typeof browserApi;

/** A timer handle, opaque to its user. */
export type TimerHandle = unknown;

/** Timers on the platform's time (real `setTimeout` in the worker, virtual time in the campaign). */
export interface Timers {
  /** Calls `fn` once after `ms` milliseconds (monotonic time; a wall-clock jump does not move it). */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer of {@link Timers.setTimeout}; unknown handles are ignored. */
  clearTimeout(handle: TimerHandle): void;
}

/** Everything the worker may touch outside its own memory. */
export interface Platform {
  /** Wall clock (jumps) and monotonic clock (durations), and `sleep` on the monotonic clock. */
  clock: Clock;
  timers: Timers;
  /** The network: every request of the worker (the service, and the chains' JSON-RPC) goes through it. */
  fetch: typeof fetch;
  /** The IndexedDB factory every store of the worker opens its database with. */
  indexedDB: IDBFactory;
  /** storage.local/sync, notifications, alarms, runtime, permissions, menus, commands, omnibox, action. */
  browser: Browser;
  /** A number in [0, 1): the jitter of back-offs (default `Math.random`; the campaign draws it from its seed). */
  random?: () => number;
}

/** The real timers: the global `setTimeout` and `clearTimeout`. */
export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The real platform of the extension's worker, on `browser`. */
export function realPlatform(browser: Browser): Platform {
  return {
    clock: realClock,
    timers: realTimers,
    fetch: (input, init) => fetch(input, init),
    indexedDB: globalThis.indexedDB,
    browser,
    random: Math.random,
  };
}
