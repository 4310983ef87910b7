/** The accessible name of each lookup tab's result list. */
export const RESULT_LISTS = {
  History: 'Intent history',
  Search: 'Search results',
  'Stuck funds': 'Intents with recoverable funds',
  Routes: 'Tokens you can pay with',
} as const;

/** A CSS attribute-value string (double-quoted, `"` and `\\` escaped). */
const cssString = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/** Page object of the popup (opened as a page at popup.html), shared by the Chromium and the Firefox suites. */
import type { PageDriver, PageOpener, Query } from './driver';

/** The popup's width in the toolbar panel (px): pages open at this viewport. */
export const POPUP_VIEWPORT = { width: 380, height: 640 };

/** The popup's tabs, in order. */
export const POPUP_TABS = ['Tracked', 'History', 'Search', 'Stuck funds', 'Routes'] as const;

/** The popup; `page` is the suite's own page (Playwright's in Chromium, {@link PuppeteerDriver} in Firefox). */
export class PopupPage<P extends PageDriver = PageDriver> {
  constructor(readonly page: P) {}
  static async open<P extends PageDriver>(ext: { openPage: PageOpener<P> }, hash = ''): Promise<PopupPage<P>> {
    return new PopupPage(await ext.openPage(`popup.html${hash}`, POPUP_VIEWPORT));
  }
  get intentBox(): Query {
    return this.page.getByRole('textbox', { name: 'Intent ID' });
  }
  async track(intentId: string) {
    await this.intentBox.fill(intentId);
    await this.page.getByRole('button', { name: 'Track', exact: true }).click();
  }
  async trackFromClipboard() {
    await this.page.getByRole('button', { name: 'Track from clipboard' }).click();
  }
  message(): Query {
    return this.page.locator('.track-form .message');
  }
  row(intentId: string): Query {
    return this.page.locator(`li[data-intent-id="${intentId}"]`);
  }
  /** The status chip text of a tracked intent in the list. */
  statusChip(intentId: string): Query {
    return this.row(intentId).locator('.chip').first();
  }
  async openReceipt(intentId: string) {
    await this.row(intentId)
      .getByRole('button', { name: `Open receipt of intent ${intentId}` })
      .click();
    await this.page.locator('#receipt-title').waitFor();
  }
  leg(kind: 'deposit' | 'origin' | 'destination' | 'refund'): Query {
    return this.page.locator(`li[data-leg="${kind}"]`);
  }
  /**
   * The result list of a lookup tab, once it holds rows of a finished answer: the list named for that tab (so the
   * previous tab's list never counts), not `aria-busy`, and — when `query` is given — showing that query (its
   * `data-query`, see `queryKey` in lib/query), so an answer to an earlier query never counts either.
   */
  async results(tab: keyof typeof RESULT_LISTS, query?: string, timeout = 30_000): Promise<Query> {
    const selector = `[role="tabpanel"] [aria-label=${cssString(RESULT_LISTS[tab])}]${query === undefined ? '' : `[data-query=${cssString(query)}]`}:not([aria-busy="true"])`;
    await this.page.locator(`${selector} > li`).first().waitFor({ timeout });
    return this.page.locator(selector);
  }
  tab(name: (typeof POPUP_TABS)[number]): Query {
    return this.page.getByRole('tab', { name });
  }
  async close() {
    await this.page.close();
  }
}

/**
 * Opens each tab of the popup by a click and fills it as a user would (History and Stuck funds load, a search for
 * "0x", routes to the default token), then calls `visit` with the tab's name. Fails when a tab does not open.
 */
export async function showEveryTab<P extends PageDriver>(popup: PopupPage<P>, visit: (tab: (typeof POPUP_TABS)[number]) => Promise<void>) {
  for (const tab of POPUP_TABS) {
    await popup.tab(tab).click();
    const selected = await popup.tab(tab).getAttribute('aria-selected');
    if (selected !== 'true') throw new Error(`the ${tab} tab did not open`);
    if (tab === 'Search') {
      await popup.page.getByLabel('Search intents').fill('0x');
      await popup.page.getByRole('button', { name: 'Search', exact: true }).click();
    }
    if (tab === 'Routes') await popup.page.getByRole('button', { name: 'Find routes' }).click();
    if (tab !== 'Tracked') await popup.results(tab);
    await visit(tab);
  }
}

/**
 * Runs in the page (pass it to `page.evaluate`): every element that does not fit — whose content is wider than its
 * box (it would scroll or clip sideways; form inputs and visually hidden text aside), or that reaches past the
 * viewport's sides — and whether
 * the document itself scrolls sideways. Each as `tag.class "text…": why`. Self-contained: it is serialized into the
 * page.
 */
export function overflowingElements(): string[] {
  const out: string[] = [];
  const width = document.documentElement.clientWidth;
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    if (el.matches('input, textarea, select, option, script, style')) continue;
    const box = el.getBoundingClientRect();
    // Not drawn, or visually hidden for screen readers (a 1 px clipped box).
    if (box.width <= 1 || box.height <= 1) continue;
    const wider = el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1;
    const outside = box.left < -0.5 || box.right > width + 0.5;
    if (!wider && !outside) continue;
    const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${Array.from(el.classList).join('.')}` : ''}`;
    const text = (el.textContent ?? '').trim().slice(0, 30);
    out.push(
      `${name} "${text}": ${wider ? `content ${el.scrollWidth}px in a ${el.clientWidth}px box` : `spans ${Math.round(box.left)}–${Math.round(box.right)}px of ${width}px`}`,
    );
  }
  if (document.documentElement.scrollWidth > width)
    out.push(`the document scrolls sideways (${document.documentElement.scrollWidth}px in ${width}px)`);
  return out;
}
