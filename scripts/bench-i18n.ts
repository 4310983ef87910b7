/**
 * `browser.i18n` for the bench's Node rows that word what they verify (lib/i18n.ts reads `browser.i18n`, and
 * `wxt/browser` takes `globalThis.chrome` when it is first imported): English messages from
 * `public/_locales/en/messages.json`, substituted as Chrome does. Imported first by scripts/bench.ts, before any module
 * of lib/. Does nothing when a `chrome` global already exists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Entry = { message: string; placeholders?: Record<string, { content: string }> };
const messages = JSON.parse(readFileSync(join(process.cwd(), 'public', '_locales', 'en', 'messages.json'), 'utf8')) as Record<
  string,
  Entry
>;

/** Chrome's substitution: named placeholders, then `$1`…`$9`, `$$` → `$`. */
function getMessage(key: string, subs: string | string[] = []): string {
  const entry = messages[key];
  if (!entry) return '';
  const list = Array.isArray(subs) ? subs : [subs];
  const named = Object.fromEntries(Object.entries(entry.placeholders ?? {}).map(([k, v]) => [k.toLowerCase(), v.content]));
  return entry.message
    .replace(/\$([A-Za-z0-9_@]+)\$/g, (whole, name: string) => named[name.toLowerCase()] ?? whole)
    .replace(/\$(\$|[1-9])/g, (_, d: string) => (d === '$' ? '$' : (list[Number(d) - 1] ?? '')));
}

const g = globalThis as { chrome?: unknown };
g.chrome ??= { i18n: { getMessage, getUILanguage: () => 'en' } };
