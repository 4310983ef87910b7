/**
 * What the built bundles must not carry (`npm run build:all` first), beside their sizes (scripts/check-budget.ts):
 * the parts cut out of them, each named by a string only that part brings, so that one coming back is named rather
 * than found as a drift of the budget.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

function read(path: string): string {
  if (!existsSync(path)) throw new Error(`${path} is missing: run npm run build:all first`);
  return readFileSync(path, 'utf8');
}

/** The scripts popup.html loads at once (entry and preloaded chunks), as check-budget.ts counts them. */
function popupScripts(dir: string): string {
  const html = read(`${dir}/popup.html`);
  const files = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/?([^"]+\.js)"/g)].map((m) => m[1]!);
  expect(files.length).toBeGreaterThan(0);
  return files.map((f) => read(`${dir}/${f}`)).join('\n');
}

describe.each(['chrome-mv3', 'firefox-mv3'])('%s bundles', (dir) => {
  const worker = () => read(`.output/${dir}/background.js`);

  it('the worker reads JSON-RPC without viem’s request pipeline (its table of RPC error classes)', () => {
    expect(worker()).toContain('eth_getTransactionReceipt');
    for (const name of ['InternalRpcError', 'MethodNotFoundRpcError', 'UserRejectedRequestError']) expect(worker()).not.toContain(name);
  });

  it('the worker carries only the reads of the service: no QuoteIntent, CommitIntent or ExecuteIntent', () => {
    expect(worker()).toContain('WaitIntentReceipt');
    for (const operation of ['QuoteIntent', 'CommitIntent', 'ExecuteIntent']) expect(worker()).not.toContain(operation);
  });

  it('the worker carries no zod partial() (GetIntentHistory’s page fields are optional already)', () => {
    expect(worker()).not.toContain('cannot be used on tuple schemas containing refinements');
  });

  it('the popup opens without the export formats (a chunk loaded on the first Export click)', () => {
    const exportColumn = 'originAmountRaw';
    expect(popupScripts(`.output/${dir}`)).not.toContain(exportColumn);
    expect(read('lib/format/export.ts')).toContain(`'${exportColumn}'`);
  });
});
