/**
 * E2E fixtures: launch Debian's Chromium with the built extension (playwright-core), find the extension id and its
 * service worker, stop the worker, read notifications; page objects for the options page and the popup.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page, type Worker } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, onTestFailed } from 'vitest';
import { type Simulator, type SimulatorOptions, startSimulator } from '../simulator/server';

/** The Chromium binary (Debian's package). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The Chrome MV3 build under test (`npm run build`), or `SVC_EXTENSION_DIR` when set (read at each launch). */
export function extensionDir(): string {
  return resolve(process.env.SVC_EXTENSION_DIR ?? '.output/chrome-mv3');
}

/** Flags for a headless Chromium on this closed network, with the extension loaded. */
export function chromiumArgs(dir = extensionDir()): string[] {
  return [
    `--disable-extensions-except=${dir}`,
    `--load-extension=${dir}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
  ];
}

/** A fresh temporary profile folder. */
export function tempProfile(): string {
  return mkdtempSync(join(tmpdir(), 'svc-e2e-profile-'));
}

/** A running browser with the extension. */
export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  userDataDir: string;
  /**
   * The extension's service worker. Playwright keeps the same handle across a stop and restart of the worker;
   * calls on it while the worker is stopped wait for a restart.
   */
  worker(): Promise<Worker>;
  close(): Promise<void>;
  /** What happened inside, for failure reports: `<ms since epoch> <event>` (worker start/stop, console lines). */
  log: string[];
}

/** Every browser launched by this test file, for {@link reportFailures}. */
const launched: ExtensionBrowser[] = [];

/** Launches Chromium with the extension through Playwright (DevTools protocol attached); headless unless told. */
export async function launchExtension(userDataDir = tempProfile(), headless = true): Promise<ExtensionBrowser> {
  if (!existsSync(join(extensionDir(), 'manifest.json'))) throw new Error(`No build in ${extensionDir()}: run npm run build`);
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless,
    args: chromiumArgs(),
  });
  const log: string[] = [];
  const note = (line: string) => log.push(`${Date.now()} ${line}`);
  const watchWorker = (w: Worker) => {
    note(`worker started ${w.url()}`);
    w.on('console', (m) => note(`worker ${m.type()}: ${m.text()}`));
    w.on('close', () => note('worker stopped'));
  };
  for (const w of context.serviceWorkers()) watchWorker(w);
  context.on('serviceworker', watchWorker);
  const watchPage = (p: Page) =>
    p.on('console', (m) => note(`page ${new URL(p.url() || 'about:blank').pathname} ${m.type()}: ${m.text()}`));
  for (const p of context.pages()) watchPage(p);
  context.on('page', watchPage);
  const worker = async () => {
    const live = context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://'));
    return live ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  };
  const extensionId = new URL((await worker()).url()).host;
  const ext = { context, extensionId, userDataDir, worker, close: () => context.close(), log };
  launched.push(ext);
  return ext;
}

/**
 * Registers a hook that, when a test of this file fails, prints what the browsers and the simulator saw during it:
 * the browsers' worker and page log, and the simulator's calls (operation, intent, times relative to the test's
 * start, status, outcome).
 */
export function reportFailures(sim: () => Simulator | undefined): void {
  beforeEach(() => {
    const since = Date.now();
    onTestFailed(() => {
      const rel = (t: number | undefined) => (t === undefined ? '…' : `${((t - since) / 1000).toFixed(1)}s`);
      const lines = ['--- failure report (times from the start of the test) ---'];
      for (const ext of launched) {
        for (const entry of ext.log) {
          const at = Number(entry.slice(0, entry.indexOf(' ')));
          if (at >= since) lines.push(`[browser ${ext.extensionId.slice(0, 6)}] ${rel(at)} ${entry.slice(entry.indexOf(' ') + 1)}`);
        }
      }
      for (const r of sim()?.requests() ?? []) {
        if (r.start < since) continue;
        lines.push(
          `[simulator] ${rel(r.start)}→${rel(r.end)} ${r.operation} ${r.intentId?.slice(0, 10) ?? ''} ${r.status ?? ''} ${r.outcome ?? ''}`,
        );
        for (const t of r.trace ?? []) lines.push(`[simulator]     ${t}`);
      }
      console.error(lines.slice(0, 400).join('\n'));
    });
  });
}

/**
 * Stops the extension's service worker the way Chrome does when it is idle (DevTools ServiceWorker domain) and
 * resolves once Chrome reports it stopped. Do not call into the worker until something wakes it again.
 */
export async function stopWorker(ext: ExtensionBrowser): Promise<void> {
  const page = await ext.context.newPage();
  await page.goto(`chrome-extension://${ext.extensionId}/manifest.json`);
  const cdp = await ext.context.newCDPSession(page);
  const stopped = new Promise<void>((resolve) => {
    cdp.on('ServiceWorker.workerVersionUpdated', (event: { versions: Array<{ scriptURL: string; runningStatus: string }> }) => {
      if (event.versions.some((v) => v.scriptURL.startsWith(`chrome-extension://${ext.extensionId}/`) && v.runningStatus === 'stopped'))
        resolve();
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await stopped;
  await cdp.detach();
  await page.close();
}

/** Notifications the browser holds for the extension: id → {title, message}. */
export async function notifications(ext: ExtensionBrowser): Promise<Record<string, { title?: string; message?: string }>> {
  const worker = await ext.worker();
  return worker.evaluate(async () => {
    const all = await chrome.notifications.getAll();
    const out: Record<string, { title?: string; message?: string }> = {};
    for (const id of Object.keys(all)) out[id] = {};
    return out;
  });
}

/** The intents a notification id stands for: `svc-intent:<id>:<t>`, or `svc-group:<t>:<id>,<id>,…` for a summary. */
export function intentsOfNotificationId(id: string): string[] {
  if (id.startsWith('svc-intent:')) return [id.split(':')[1]!];
  if (id.startsWith('svc-group:')) return id.split(':')[2]!.split(',');
  return [];
}

/** Notification ids (single or summary) on screen for one intent. */
export async function notificationIdsFor(ext: ExtensionBrowser, intentId: string): Promise<string[]> {
  return Object.keys(await notifications(ext)).filter((id) => intentsOfNotificationId(id).includes(intentId));
}

/** Page object of the options page. */
export class OptionsPage {
  constructor(readonly page: Page) {}
  static async open(ext: ExtensionBrowser): Promise<OptionsPage> {
    const page = await ext.context.newPage();
    await page.goto(`chrome-extension://${ext.extensionId}/options.html`);
    return new OptionsPage(page);
  }
  async fill(baseUrl: string, accessKey: string) {
    await this.page.getByLabel('Service URL').fill(baseUrl);
    await this.page.getByLabel('Access key').fill(accessKey);
  }
  /** Fills and saves as a user would; resolves with the save message. */
  async save(baseUrl: string, accessKey: string): Promise<string> {
    await this.fill(baseUrl, accessKey);
    await this.page.getByRole('button', { name: 'Save' }).click();
    const status = this.page.getByTestId('save-status');
    await status.waitFor();
    return (await status.textContent()) ?? '';
  }
  /** Presses Test connection; resolves with the final message. */
  async testConnection(): Promise<string> {
    await this.page.getByRole('button', { name: 'Test connection' }).click();
    const status = this.page.getByTestId('test-status');
    await status.filter({ hasNotText: 'Testing…' }).waitFor();
    return (await status.textContent()) ?? '';
  }
}

/** Configures the extension through its options page, then closes the page. */
export async function configure(ext: ExtensionBrowser, baseUrl: string, accessKey: string): Promise<void> {
  const options = await OptionsPage.open(ext);
  const message = await options.save(baseUrl, accessKey);
  if (!message.startsWith('Saved')) throw new Error(`Saving settings failed: ${message}`);
  await options.page.close();
}

/** Page object of the popup (opened as a page at popup.html). */
export class PopupPage {
  constructor(readonly page: Page) {}
  static async open(ext: ExtensionBrowser, hash = ''): Promise<PopupPage> {
    const page = await ext.context.newPage();
    await page.setViewportSize({ width: 380, height: 640 });
    await page.goto(`chrome-extension://${ext.extensionId}/popup.html${hash}`);
    return new PopupPage(page);
  }
  get intentBox(): Locator {
    return this.page.getByRole('textbox', { name: 'Intent ID' });
  }
  async track(intentId: string) {
    await this.intentBox.fill(intentId);
    await this.page.getByRole('button', { name: 'Track', exact: true }).click();
  }
  async trackFromClipboard() {
    await this.page.getByRole('button', { name: 'Track from clipboard' }).click();
  }
  message(): Locator {
    return this.page.locator('.track-form .message');
  }
  row(intentId: string): Locator {
    return this.page.locator(`li[data-intent-id="${intentId}"]`);
  }
  /** The status chip text of a tracked intent in the list. */
  statusChip(intentId: string): Locator {
    return this.row(intentId).locator('.chip').first();
  }
  async openReceipt(intentId: string) {
    await this.row(intentId)
      .getByRole('button', { name: `Open receipt of intent ${intentId}` })
      .click();
    await this.page.getByRole('heading', { name: /Receipt/ }).waitFor();
  }
  leg(kind: 'deposit' | 'origin' | 'destination' | 'refund'): Locator {
    return this.page.locator(`li[data-leg="${kind}"]`);
  }
  async close() {
    await this.page.close();
  }
}

/** Starts Chromium with the extension and no DevTools protocol attached (plain process, as a user runs it). */
export function spawnPlainChromium(userDataDir: string): ChildProcess {
  return spawn(CHROMIUM, ['--headless=new', `--user-data-dir=${userDataDir}`, ...chromiumArgs(), 'about:blank'], {
    stdio: 'ignore',
    detached: true,
  });
}

/** Kills a spawned browser and its children. */
export async function killBrowser(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
}

/** Removes a profile folder (best effort). */
export function removeProfile(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Reads a tracked intent's record straight from the extension's IndexedDB (inside the worker). */
export async function readTracked(ext: ExtensionBrowser, intentId: string): Promise<Record<string, unknown> | undefined> {
  const worker = await ext.worker();
  return worker.evaluate(
    (id) =>
      new Promise<Record<string, unknown> | undefined>((resolve, reject) => {
        const open = indexedDB.open('svc-intents');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('intents').objectStore('intents').get(id);
          req.onsuccess = () => {
            open.result.close();
            resolve(req.result as Record<string, unknown> | undefined);
          };
          req.onerror = () => reject(req.error);
        };
      }),
    intentId,
  );
}

/**
 * Records notifications as the extension creates them — id and time (ms) — by wrapping
 * `chrome.notifications.create` in the running worker (the browser may close old notifications on its own, so
 * `getAll` alone undercounts over minutes). Lost when the worker restarts. Read with {@link createdNotifications}.
 */
export async function countNotificationCreates(ext: ExtensionBrowser): Promise<void> {
  const worker = await ext.worker();
  await worker.evaluate(() => {
    const g = globalThis as unknown as { __created?: Array<[string, number]> };
    if (g.__created) return;
    g.__created = [];
    const api = chrome.notifications as unknown as { create: (...args: unknown[]) => unknown };
    const original = api.create;
    api.create = (...args: unknown[]) => {
      g.__created!.push([String(args[0]), Date.now()]);
      return original.apply(api, args);
    };
  });
}

/** Notifications created since {@link countNotificationCreates}: [id, time in ms]. */
export async function createdNotificationTimes(ext: ExtensionBrowser): Promise<Array<[string, number]>> {
  const worker = await ext.worker();
  return worker.evaluate(() => (globalThis as unknown as { __created?: Array<[string, number]> }).__created ?? []);
}

/** Notification ids created since {@link countNotificationCreates}. */
export async function createdNotifications(ext: ExtensionBrowser): Promise<string[]> {
  return (await createdNotificationTimes(ext)).map(([id]) => id);
}

/**
 * Registers beforeAll/afterAll that start a simulator and a browser with the extension configured for it (through
 * the options page), and tear both down. Read `ctx.sim` and `ctx.ext` inside tests.
 */
export function useConfiguredExtension(options: SimulatorOptions = {}): { sim: Simulator; ext: ExtensionBrowser } {
  const ctx = {} as { sim: Simulator; ext: ExtensionBrowser };
  beforeAll(async () => {
    mkdirSync('.output/e2e', { recursive: true });
    ctx.sim = await startSimulator(options);
    ctx.ext = await launchExtension();
    await configure(ctx.ext, ctx.sim.url, ctx.sim.accessKey);
  });
  reportFailures(() => ctx.sim);
  afterAll(async () => {
    await ctx.ext?.close();
    if (ctx.ext) removeProfile(ctx.ext.userDataDir);
    await ctx.sim?.close();
  });
  return ctx;
}

/**
 * Waits until the browser holds exactly one notification for the intent and resolves with its ids. On time-out it
 * fails with the intent's stored record (without its receipt); {@link reportFailures} adds the simulator's calls.
 */
export async function waitForNotification(
  ext: ExtensionBrowser,
  intentId: string,
  options: { timeoutMs: number; intervalMs?: number },
): Promise<string[]> {
  const deadline = Date.now() + options.timeoutMs;
  let ids: string[] = [];
  for (;;) {
    ids = await notificationIdsFor(ext, intentId).catch(() => []);
    if (ids.length === 1) return ids;
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 250));
  }
  const record = await readTracked(ext, intentId).then(
    (r) => JSON.stringify(r, (key, value) => (key === 'receipt' ? undefined : value)),
    (err: unknown) => `unreadable: ${String(err)}`,
  );
  throw new Error(
    `expected 1 notification for ${intentId} within ${options.timeoutMs} ms, found ${ids.length} (${ids.join(', ')})\nstored record: ${record}`,
  );
}
