/**
 * Unit-suite setup, run before each test file: a fresh IndexedDB (fake-indexeddb's factory), a reset fakeBrowser,
 * real timers and no spies or stubbed globals left. The unit project shares its modules between the files a worker
 * runs (`isolate: false`, vitest.config.ts): without this, a file would see the databases, storage areas, listeners,
 * fake clock and spies the worker's earlier files left behind.
 */
import { IDBFactory } from 'fake-indexeddb';
import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';

vi.useRealTimers();
vi.restoreAllMocks();
vi.unstubAllGlobals();
globalThis.indexedDB = new IDBFactory();
fakeBrowser.reset();
