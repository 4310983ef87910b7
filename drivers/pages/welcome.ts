/**
 * Page object of the welcome page (`welcome.html`, opened by the extension itself on install), shared by the Chromium
 * and the Firefox suites. It reads and presses only what the page shows.
 */
import type { PageDriver, Query } from './driver';
import { OptionsPage } from './options';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The welcome page; the connection fields are the options page's own, so their steps are shared. */
export class WelcomePage<P extends PageDriver = PageDriver> extends OptionsPage<P> {
  heading(): Query {
    return this.page.getByRole('heading', { name: 'Welcome to Svc Intent Tracker' });
  }
  /** The one picture, by its role and its text alternative (an ARIA query misses SVG images in Firefox). */
  picture(): Query {
    const alt = "The toolbar button's list of tracked intents, and a desktop notification saying that an intent succeeded.";
    return this.page.locator(`[role="img"][aria-label="${alt}"]`);
  }
  /** The note that explains the browser's permission prompt, shown before Save is pressed. */
  permissionNote(): Query {
    return this.page.getByTestId('permission-note');
  }
  /** Fills the service URL and the key and presses "Save and connect"; resolves with the first save message. */
  async connect(baseUrl: string, accessKey: string): Promise<string> {
    await this.fill(baseUrl, accessKey);
    await this.page.getByRole('button', { name: 'Save and connect', exact: true }).click();
    const status = this.page.getByTestId('save-status');
    await status.waitFor();
    return (await status.textContent()) ?? '';
  }
  /** Pastes an intentId in step 2 and presses Track; resolves with what the page answers. */
  async trackFirst(intentId: string): Promise<string> {
    await this.page.getByRole('textbox', { name: 'Intent ID' }).fill(intentId);
    await this.page.getByRole('button', { name: 'Track', exact: true }).click();
    const status = this.page.getByTestId('track-status');
    await status.waitFor();
    return (await status.textContent()) ?? '';
  }
  /** The shortcuts as listed: `[keys, what they do]` per command, once the browser answered. */
  async shortcuts(): Promise<Array<[string, string]>> {
    const list = this.page.getByTestId('shortcuts');
    const deadline = Date.now() + 10_000;
    while ((await list.locator('div').count()) < 2 && Date.now() < deadline) await sleep(100);
    const out: Array<[string, string]> = [];
    const n = await list.locator('div').count();
    for (let i = 0; i < n; i++) {
      const row = list.locator(`div:nth-child(${i + 1})`);
      out.push([(await row.locator('kbd').textContent()) ?? '', (await row.locator('dd').textContent()) ?? '']);
    }
    return out;
  }
}
