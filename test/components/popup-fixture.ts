/**
 * The popup's component tests over the simulator: one simulator for the file, and before each test a fresh IndexedDB,
 * a reset fakeBrowser and no intent open in the URL (`#`), the rendered tree cleaned up after it.
 */
import { cleanup } from '@testing-library/preact';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { type Simulator, startSimulator } from '../../simulator/server';

/** Registers the file's hooks; returns the simulator (started before the first test). */
export function popupOnSimulator(): () => Simulator {
  let sim: Simulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim?.close());
  beforeEach(() => {
    globalThis.indexedDB = new IDBFactory();
    fakeBrowser.reset();
    history.replaceState(null, '', '#');
  });
  afterEach(cleanup);
  return () => sim!;
}

/** An address or hash as the popup shortens it: "0xabcd…1234". */
export const short = (s: string) => `${s.slice(0, 6)}…${s.slice(-4)}`;
