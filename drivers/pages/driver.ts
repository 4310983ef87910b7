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

/** A step of a query: a selector, "the first match", or a role with a name matched as Playwright does. */
type Step = string | 'first' | { role: string; name: string; exact: boolean };

/**
 * Runs in the page: an approximation of an element's accessible name (aria-label, aria-labelledby, its labels, or its
 * text), whitespace-collapsed. Enough for the names this extension gives its controls.
 */
function nameOf(el: Element): string {
  const by = el.getAttribute('aria-labelledby');
  const labels = (el as HTMLInputElement).labels;
  const text =
    el.getAttribute('aria-label') ??
    (by
      ? by
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
      : labels && labels.length > 0
        ? Array.from(labels)
            .map((l) => l.textContent ?? '')
            .join(' ')
        : (el.textContent ?? ''));
  return text.replace(/\s+/g, ' ').trim();
}

/** The query step of a role (and name). */
function roleStep(role: string, options: RoleOptions): Step {
  return options.name === undefined ? aria(role, undefined) : { role, name: options.name, exact: options.exact ?? false };
}

/** A {@link Query} over a puppeteer-core page: a chain of selectors, resolved to element handles on each call. */
class PuppeteerQuery implements Query {
  constructor(
    private readonly page: Page,
    private readonly steps: ReadonlyArray<Step>,
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
        for (const root of roots) next.push(...(await this.find(root, step, taken)));
        roots = next;
      }
      return await fn(roots as ElementHandle<Element>[]);
    } finally {
      await Promise.all(taken.map((h) => h.dispose().catch(() => {})));
    }
  }

  /**
   * The matches of one step under `root`. A role with a name is matched whole first (Puppeteer's ARIA query), then —
   * unless `exact` — as a case-insensitive part of the name, as Playwright's getByRole does.
   */
  private async find(root: Root, step: Exclude<Step, 'first'>, taken: ElementHandle<Node>[]): Promise<ElementHandle<Element>[]> {
    const found = (await root.$$(typeof step === 'string' ? step : aria(step.role, step.name))) as ElementHandle<Element>[];
    taken.push(...found);
    if (typeof step === 'string' || step.exact || found.length > 0) return found;
    const candidates = (await root.$$(aria(step.role, undefined))) as ElementHandle<Element>[];
    taken.push(...candidates);
    const want = step.name.toLowerCase();
    const names = await Promise.all(candidates.map((c) => c.evaluate(nameOf)));
    return candidates.filter((_, i) => names[i]!.toLowerCase().includes(want));
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
    return this.steps.map((s) => (typeof s === 'string' ? s : `role=${s.role}[name=${JSON.stringify(s.name)}]`)).join(' >> ');
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
    return new PuppeteerQuery(this.page, [...this.steps, roleStep(role, options)]);
  }
  first(): Query {
    return new PuppeteerQuery(this.page, [...this.steps, 'first']);
  }
  /**
   * Clicks the element once it is enabled, as Playwright's click does (its actionability checks): Puppeteer's own
   * click goes ahead on a disabled button, and the click is lost (the popup's "Track" is disabled while a track is
   * under way). Added for stress run 8 of 10 (2026-11-24); that run's lost track came from `fill` (below).
   */
  click() {
    return this.one(async (el) => {
      const deadline = Date.now() + WAIT_MS;
      while (await el.evaluate((e) => (e as HTMLButtonElement).disabled === true || e.getAttribute('aria-disabled') === 'true')) {
        if (Date.now() >= deadline) throw new Error(`${this.describe()}: still disabled after waiting`);
        await sleep(50);
      }
      await el.scrollIntoView();
      await el.click();
    });
  }
  /**
   * Sets the value in one step and fires `input` and `change`, as Playwright's fill does. Puppeteer's default fill of
   * a value under 100 characters first empties the field by assignment, without an `input` event, then types key by
   * key: a render of the popup in between (the tracker's change broadcast after the previous "Track") puts the
   * previous value back (the field is controlled), and the keys are typed after it — two intentIds in one field, an
   * invalid id, a lost track. Stress runs (2026-11-24, run 8; 2026-11-24 evening, run 3): `firefox/calm.firefox.ts`'s
   * second intent was never tracked; reproduced by emptying the field that way and tracking another intent.
   */
  fill(value: string) {
    return this.one((el) => el.asLocator().fill(value, { typingThreshold: 0 }));
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
    return new PuppeteerQuery(this.raw, [roleStep(role, options)]);
  }
  getByLabel(label: string): Query {
    // A control named by a <label for> or by aria-label (an ARIA query would match the label's own text too).
    const text = JSON.stringify(label);
    return this.locator(`::-p-xpath(//*[@id=//label[normalize-space()=${text}]/@for] | //*[@aria-label=${text}])`);
  }
  getByTestId(testId: string): Query {
    return this.locator(`[data-testid=${JSON.stringify(testId)}]`);
  }
  close() {
    return this.raw.close();
  }
}
