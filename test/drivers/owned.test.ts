/** `Owned` (drivers/fixtures/owned.ts): a file's teardown closes what its start made, even what a late start makes after. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LateStartError, Owned } from '../../drivers/fixtures/owned';

/** A promise resolved from outside (a browser launch still under way). */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('Owned', () => {
  // What is closed late is told on the console (vitest drops what a timed-out hook throws later).
  beforeEach(() => void vi.spyOn(console, 'warn').mockImplementation(() => {}));
  afterEach(() => void vi.restoreAllMocks());

  it('closes what the start made, the last made first', async () => {
    const closed: string[] = [];
    const owned = new Owned();
    await owned.own('the simulator', 'sim', (v) => void closed.push(v));
    await owned.own('Chromium', 'browser', async (v) => {
      await Promise.resolve();
      closed.push(v);
    });
    await owned.closeAll();
    expect(closed).toEqual(['browser', 'sim']);
    // A second teardown closes nothing twice.
    await owned.closeAll();
    expect(closed).toEqual(['browser', 'sim']);
  });

  it('closes at once what a start cut by its time-out makes after the teardown, and ends that start there', async () => {
    const closed: string[] = [];
    const configured: string[] = [];
    const owned = new Owned();
    const launch = deferred<string>();
    // The fixture's start: a simulator, then a browser whose launch outlasts the hook's time-out, then its configuration.
    const start = (async () => {
      await owned.own('the simulator', 'sim', (v) => void closed.push(v));
      const browser = await owned.own('Chromium', await launch.promise, (v) => void closed.push(v));
      configured.push(browser);
    })();
    await Promise.resolve();
    // The hook timed out: the teardown runs while the launch is still under way.
    await owned.closeAll();
    expect(closed).toEqual(['sim']);
    launch.resolve('late browser');
    await expect(start).rejects.toBeInstanceOf(LateStartError);
    await expect(start).rejects.toThrow(/Chromium was made after the file's teardown/);
    expect(closed).toEqual(['sim', 'late browser']);
    expect(configured).toEqual([]);
  });

  it('closes a late thing even when its close fails, and still ends the start with LateStartError', async () => {
    const owned = new Owned();
    await owned.closeAll();
    let tried = false;
    const late = owned.own('the local chains', 'anvil', () => {
      tried = true;
      throw new Error('port in use');
    });
    await expect(late).rejects.toBeInstanceOf(LateStartError);
    expect(tried).toBe(true);
    expect(vi.mocked(console.warn)).toHaveBeenCalledWith(
      "the local chains was made after the file's teardown: closed at once (and its close failed: port in use)",
    );
  });

  it('closes what a late start makes while the teardown is still closing an earlier thing', async () => {
    const closed: string[] = [];
    const owned = new Owned();
    const slowClose = deferred<void>();
    await owned.own('Chromium', 'browser', async (v) => {
      await slowClose.promise;
      closed.push(v);
    });
    const teardown = owned.closeAll();
    // The simulator a late start made arrives while the browser's close is still under way.
    await expect(owned.own('the simulator', 'sim', (v) => void closed.push(v))).rejects.toBeInstanceOf(LateStartError);
    expect(closed).toEqual(['sim']);
    slowClose.resolve();
    await teardown;
    expect(closed).toEqual(['sim', 'browser']);
  });

  it('rejects with every failure when several things fail to close', async () => {
    const owned = new Owned();
    await owned.own('the simulator', 'sim', () => Promise.reject(new Error('port gone')));
    await owned.own('Firefox', 'firefox', () => Promise.reject(new Error('the browser had gone')));
    const err = await owned.closeAll().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AggregateError);
    expect((err as AggregateError).errors.map((e: Error) => e.message)).toEqual([
      'closing Firefox: the browser had gone',
      'closing the simulator: port gone',
    ]);
  });

  it('closes the rest when one close fails, then rejects naming what failed', async () => {
    const closed: string[] = [];
    const owned = new Owned();
    await owned.own('the simulator', 'sim', (v) => void closed.push(v));
    await owned.own('Firefox', 'firefox', () => Promise.reject(new Error('the browser had gone')));
    await owned.own('the virtual display', 'display', (v) => void closed.push(v));
    await expect(owned.closeAll()).rejects.toThrow('closing Firefox: the browser had gone');
    expect(closed).toEqual(['display', 'sim']);
  });
});
