/**
 * Bundle budget (run by `npm test` after the builds): the JavaScript the popup page loads ≤ 30 KB gzip, the
 * background worker ≤ 53 KB gzip plus what on-chain verification costs it ({@link VERIFIER_BYTES}), the Chrome zip
 * ≤ 160 KB. Prints the figures; exits 1 above budget.
 *
 * The background's 53 KB (the worker without the verifier): measured 49,303 B (48.1 KB) on 2026-11-27 after the cuts
 * below, plus a margin of 361 B (48.5 KB), so that the next growth is a decision, not a drift; then + 0.5 KB for the
 * synced settings' last well-formed values, kept for a malformed item from another device (lib/store/sync-seen.ts); then
 * + 0.5 KB (49.5 KB) for the load's bounded reads (lib/tracker/load-bound.ts: a store read that never answers no longer
 * shuts the start gate for ever, and a user's action waits for one only slow) and the watched check's first look kept
 * before its read: the worker without the verifier measured 50,486 B on 2026-11-27 with them; then + 0.5 KB (50 KB) for
 * the pace of a refused write held in memory (EngineCore.heldPace: on a full disk an intent was asked every 2 s), look-ups
 * answered after the user's actions ahead of them, and the storage failure's own words: 50,837 B measured the same day;
 * then + 0.5 KB (50.5 KB) for the load's own writes bounded as its reads are (lib/tracker/load-rebase.ts: a rebase
 * write that never answers no longer holds the load, the gate and every look-up; a late one never moves a record
 * twice), the kept pause's writes kept in order (lib/tracker/pause.ts) and the back-off counted per kind of failure:
 * 51,210 B measured the same day; then + 1 KB (51.5 KB) for the notification outbox kept one record per job
 * (lib/store/outbox.ts, docs/memory.md "The outbox"): read once a life and written job by job instead of whole at each
 * change, with its queue of changes, its frozen table, its pruning of only what changed and the earlier version's record
 * migrated (+560 B, trimmed from +709 B): the whole worker measured 61,578 B before and 62,138 B after on 2026-11-29;
 * then + 0.5 KB (52 KB) for the popup list's rows (lib/query/tracked-row.ts: a desk's 5,000 records crossed the runtime
 * messaging as about 12 MB; the rows are under half of that): 62,499 B before and 62,794 B after (+295 B), 2026-11-29;
 * then + 1 KB (53 KB) for N2 when a removal's or a mute's own outbox change is lost (refused, or its worker dead):
 * the delivery asks the tracker and reads the mutes before each run (lib/notify/delivery.ts `dropUntracked`,
 * `#dropMuted`), an away summary still to come is rebuilt without the intent (lib/notify/outbox-removal.ts), and
 * tracking anew forgets what an earlier tracking left (`forgetMany`): 63,021 B before and 63,754 B after (+733 B),
 * 2026-11-29.
 * What fills it, as gzip shares
 * (`SVC_SOURCEMAP=1 npx wxt build` with the verifier's hook taken out, then `node --import tsx
 * scripts/bundle-parts.ts`): our lib/ ≈ 35.3 KB — lib/tracker 9.8, lib/notify 6.3, lib/api 6.3, lib/worker 5.8,
 * lib/store 3.8: the worker's defences against the platform's and the service's faults (a steady clock and an
 * interval estimate of the service's clock, the sliding request window and the tracker's pace, per-intent news
 * pacing, Retry-After pauses served across workers, the NotFound grace, records and ETA baselines held through
 * refused writes, fresh-answer watchdogs, synced settings' logical clock, quiet hours by time-zone rules), tracking
 * many at once, and the module boundaries of lib/'s size limits, which the minifier cannot fold; zod/mini 7.1 KB
 * (every answer, stored record and page message is validated); webextension-polyfill 3.0 KB (the worker answers the
 * pages' messages by returning a Promise, which Chrome's own API did not accept at our minimum version, 116);
 * lossless-json's parse 1.9 KB (exact raw amounts); idb-keyval 0.4 KB. Nothing of it can load later: `import()` is
 * refused in a service worker, so the worker is one file. It was 50,462 B before the cuts of 2026-11-27: the worker
 * builds `SvcReadClient` (the reads), so QuoteIntent, CommitIntent and ExecuteIntent, their schemas and
 * lossless-json's stringify, which only `SvcClient` and the contract tests use, left it (−694 B); GetIntentHistory's
 * `page` is no longer wrapped in zod's `partial()` (its fields are all optional already: −444 B).
 * The on-chain verifier adds what it really costs on top (docs/chain.md). The zip's 160 KB: 150.3 KB on 2026-11-27
 * with the verifier, the import and the chain settings pages (it was 113.8 KB without them).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIR = '.output/chrome-mv3';
const KB = 1024;
/**
 * What on-chain verification (issue 28) adds to the background worker, gzip -9, measured as the whole worker with and
 * without its hook in lib/worker/compose-tracking.ts (docs/chain.md, "Budget of the worker"): 61,120 B − 51,210 B on
 * 2026-11-27 with a final leg's recipient and token kept and a settled transfer judged anew against the receipt, once
 * per recipient and token (lib/chain/verify.ts `settledFor`, lib/chain/verifier.ts: +310 B); 60,437 B − 50,837 B with
 * each leg stored as its chain answers and a final leg kept across worker lives (lib/worker/chain-writer.ts,
 * chain-kept.ts: +629 B; it was 58,274 B − 49,303 B = 8,971 B before them). viem's `getHttpRpcClient`, receipt formatter, errors and hex codecs (≈ 3.7 KB), lib/chain,
 * lib/worker/chain-*.ts and its notification. It was 14,175 B while the transport was viem's `createClient`, `http`
 * and actions, whose request pipeline brought viem's table of RPC error classes, and its transaction formatter
 * (−5,204 B).
 */
const VERIFIER_BYTES = 9_910;
const gz = (file: string) => gzipSync(readFileSync(join(DIR, file)), { level: 9 }).length;

/** The scripts an HTML page of the build loads (entry and preloaded chunks). */
function pageScripts(html: string): string[] {
  const text = readFileSync(join(DIR, html), 'utf8');
  return [...text.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/?([^"]+\.js)"/g)].map((m) => m[1]!);
}

const popupFiles = pageScripts('popup.html');
const popup = popupFiles.reduce((sum, f) => sum + gz(f), 0);
const background = gz('background.js');
const zip = readdirSync('.output').find((f) => f.endsWith('-chrome.zip'));
const zipSize = zip ? statSync(join('.output', zip)).size : Number.NaN;

const rows: Array<[string, number, number]> = [
  [`popup JS (${popupFiles.join(', ')}), gzip`, popup, 30 * KB],
  ['background JS (with on-chain verification), gzip', background, 53 * KB + VERIFIER_BYTES],
  [`Chrome zip (${zip ?? 'missing: run wxt zip'})`, zipSize, 160 * KB],
];
let failed = false;
for (const [name, size, budget] of rows) {
  const ok = size <= budget;
  failed ||= !ok;
  console.log(`${ok ? 'ok  ' : 'OVER'} ${name}: ${(size / KB).toFixed(1)} KB of ${(budget / KB).toFixed(1)} KB`);
}
process.exit(failed ? 1 : 0);
