/** Page object of the options page, shared by the Chromium and the Firefox suites. */
import type { PageDriver, PageOpener } from './driver';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The options page; `page` is the suite's own page (Playwright's in Chromium, {@link PuppeteerDriver} in Firefox). */
export class OptionsPage<P extends PageDriver = PageDriver> {
  constructor(readonly page: P) {}
  /** Opens the page and waits until its saved settings are in the form (it takes no input before). */
  static async open<P extends PageDriver>(ext: { openPage: PageOpener<P> }): Promise<OptionsPage<P>> {
    const page = await ext.openPage('options.html');
    await page.locator('form[aria-busy="false"]').waitFor();
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
  /** The save message once it no longer asks to answer the browser's prompt (or after `timeoutMs`). */
  async saveOutcome(timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = (await this.page.getByTestId('save-status').textContent()) ?? '';
      if (!text.includes("in the browser's prompt") || Date.now() >= deadline) return text;
      await sleep(100);
    }
  }
  /** Presses Test connection; resolves with the final message. */
  async testConnection(): Promise<string> {
    await this.page.getByRole('button', { name: 'Test connection' }).click();
    const status = this.page.getByTestId('test-status');
    const deadline = Date.now() + 20_000;
    for (;;) {
      const text = (await status.count()) > 0 ? ((await status.textContent()) ?? '') : 'Testing…';
      if (text !== 'Testing…' || Date.now() >= deadline) return text;
      await sleep(100);
    }
  }
}

/**
 * Configures the extension through its options page, then closes the page. `answerPrompt` answers the browser's
 * host-permission prompt when the browser shows one (Firefox); Chromium grants an optional origin of an unpacked
 * extension without one.
 */
export async function configure<P extends PageDriver>(
  ext: { openPage: PageOpener<P>; answerPermissionPrompt?: (allow: boolean) => Promise<string> },
  baseUrl: string,
  accessKey: string,
): Promise<void> {
  const options = await OptionsPage.open(ext);
  let message = await options.save(baseUrl, accessKey);
  if (ext.answerPermissionPrompt && !message.includes('may reach')) {
    await ext.answerPermissionPrompt(true);
    message = await options.saveOutcome();
  }
  if (!message.startsWith('Saved')) throw new Error(`Saving settings failed: ${message}`);
  await options.page.close();
}
