/**
 * The little the page objects need from a browser page, so that one set of page objects drives the Chromium suite
 * (playwright-core: a Page and its Locators fit these interfaces as they are) and the Firefox suite (puppeteer-core
 * over WebDriver BiDi, through {@link PuppeteerDriver}).
 */
import type { ElementHandle, Page } from 'puppeteer-core';

/** Options of a role query: `name` is the accessible name, matched whole. */
export interface RoleOptions {
  name?: string;
  exact?: boolean;
}

/** A lazy query for elements, re-run on every call (like a Playwright Locator). */
export interface Query {
  /** How many elements match now. */
  count(): Promise<number>;
  /** The text of the one matching element (waits for it; more than one is an error). */
  textContent(): Promise<string | null>;
  getAttribute(name: string): Promise<string | null>;
  /** Elements matching a CSS selector inside the matches. */
  locator(selector: string): Query;
  getByRole(role: string, options?: RoleOptions): Query;
  first(): Query;
  click(): Promise<void>;
  fill(value: string): Promise<void>;
  /** Waits until a match exists (`attached`, `visible`) or none does (`detached`, `hidden`). */
  waitFor(options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
}

/** A page of the extension. */
export interface PageDriver {
  locator(selector: string): Query;
  getByRole(role: string, options?: RoleOptions): Query;
  /** The form control with this label. */
  getByLabel(label: string): Query;
  getByTestId(testId: string): Query;
  close(): Promise<void>;
}

/** Opens an extension page (`popup.html#…`, `options.html`) at a viewport size when given. */
export type PageOpener<P extends PageDriver> = (path: string, viewport?: { width: number; height: number }) => Promise<P>;

/** How long a query waits for its element (ms), as Playwright's actions do in the Chromium suite. */
const WAIT_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Puppeteer's ARIA selector (accessible name matched whole, optionally with a role). */
function aria(role: string | undefined, name: string | undefined): string {
  const n = name === undefined ? '' : `[name=${JSON.stringify(name)}]`;
  const r = role === undefined ? '' : `[role=${JSON.stringify(role)}]`;
  return `::-p-aria(${n}${r})`;
}

type Root = Page | ElementHandle<Node>;

/** A {@link Query} over a puppeteer-core page: a chain of selectors, resolved to element handles on each call. */
class PuppeteerQuery implements Query {
  constructor(
    private readonly page: Page,
    private readonly steps: ReadonlyArray<string | 'first'>,
  ) {}

  /** Runs `fn` on the current matches, then releases every handle it took. */
  private async withMatches<T>(fn: (matches: ElementHandle<Element>[]) => Promise<T>): Promise<T> {
    const taken: ElementHandle<Node>[] = [];
    try {
      let roots: Root[] = [this.page];
      for (const step of this.steps) {
        if (step === 'first') {
          roots = roots.slice(0, 1);
          continue;
        }
        const next: ElementHandle<Element>[] = [];
        for (const root of roots) next.push(...((await root.$$(step)) as ElementHandle<Element>[]));
        taken.push(...next);
        roots = next;
      }
      return await fn(roots as ElementHandle<Element>[]);
    } finally {
      await Promise.all(taken.map((h) => h.dispose().catch(() => {})));
    }
  }

  /** Waits for exactly one match and runs `fn` on it. */
  private async one<T>(fn: (el: ElementHandle<Element>) => Promise<T>, timeoutMs = WAIT_MS): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const result = await this.withMatches(async (m) => {
        if (m.length > 1) throw new Error(`${this.describe()} matched ${m.length} elements, expected one`);
        return m.length === 1 ? { value: await fn(m[0]!) } : undefined;
      });
      if (result) return result.value;
      if (Date.now() >= deadline) throw new Error(`${this.describe()} matched nothing within ${timeoutMs} ms`);
      await sleep(100);
    }
  }

  private describe(): string {
    return this.steps.join(' >> ');
  }

  count() {
    return this.withMatches(async (m) => m.length);
  }
  textContent() {
    return this.one((el) => el.evaluate((e) => e.textContent));
  }
  getAttribute(name: string) {
    return this.one((el) => el.evaluate((e, n) => e.getAttribute(n), name));
  }
  locator(selector: string): Query {
    return new PuppeteerQuery(this.page, [...this.steps, selector]);
  }
  getByRole(role: string, options: RoleOptions = {}): Query {
    return this.locator(aria(role, options.name));
  }
  first(): Query {
    return new PuppeteerQuery(this.page, [...this.steps, 'first']);
  }
  click() {
    return this.one(async (el) => {
      await el.scrollIntoView();
      await el.click();
    });
  }
  fill(value: string) {
    return this.one((el) => el.asLocator().fill(value));
  }
  async waitFor(options: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number } = {}) {
    const gone = options.state === 'detached' || options.state === 'hidden';
    const deadline = Date.now() + (options.timeout ?? WAIT_MS);
    for (;;) {
      const n = await this.count();
      if (gone ? n === 0 : n > 0) return;
      if (Date.now() >= deadline) throw new Error(`${this.describe()}: still ${gone ? 'present' : 'absent'} after waiting`);
      await sleep(100);
    }
  }
}

/** A {@link PageDriver} over a puppeteer-core page (the Firefox suite). `raw` is the page itself. */
export class PuppeteerDriver implements PageDriver {
  constructor(readonly raw: Page) {}
  locator(selector: string): Query {
    return new PuppeteerQuery(this.raw, [selector]);
  }
  getByRole(role: string, options: RoleOptions = {}): Query {
    return this.locator(aria(role, options.name));
  }
  getByLabel(label: string): Query {
    return this.locator(aria(undefined, label));
  }
  getByTestId(testId: string): Query {
    return this.locator(`[data-testid=${JSON.stringify(testId)}]`);
  }
  close() {
    return this.raw.close();
  }
}
