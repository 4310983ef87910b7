/**
 * Where a built script's bytes go: each character of `.output/chrome-mv3/<file>` (default `background.js`) is
 * charged to the source its sourcemap names, grouped by npm package or lib/ folder (`--files`: by file). Prints
 * minified bytes and each part's share of the whole file's gzip -9 size (its minified share of it: an estimate, gzip
 * has no per-part size). Needs a build with sourcemaps: `SVC_SOURCEMAP=1 npx wxt build` (wxt.config.ts), then
 * `node --import tsx scripts/bundle-parts.ts [file] [--files]`. The budget itself is scripts/check-budget.ts.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIR = '.output/chrome-mv3';
const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? 'background.js';
const byFile = args.includes('--files');

/** The part a source belongs to: `pkg` (or `pkg:path` by file) for node_modules, else its folder (or path). */
function partOf(source: string | undefined): string {
  if (!source) return '(bundler)';
  const path = source.replace(/^(\.\.\/)+/, '').replace(/^[a-z]+:\/\/\/?/, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 'node_modules/'.length).split('/');
    const scoped = rest[0]!.startsWith('@');
    const pkg = scoped ? `${rest[0]}/${rest[1]}` : rest[0]!;
    return byFile ? `${pkg}:${rest.slice(scoped ? 2 : 1).join('/')}` : pkg;
  }
  if (byFile) return path;
  const dirs = path.split('/').slice(0, -1);
  return dirs.slice(0, 2).join('/') || path;
}

const code = readFileSync(join(DIR, file), 'utf8');
const map = new SourceMap(JSON.parse(readFileSync(join(DIR, `${file}.map`), 'utf8')));
const bytes = new Map<string, number>();
const lines = code.split('\n');
for (let line = 0; line < lines.length; line++) {
  const text = lines[line]!;
  for (let column = 0; column < text.length; column++) {
    const entry = map.findEntry(line, column) as { originalSource?: string; generatedLine?: number };
    const part = entry.generatedLine === line ? partOf(entry.originalSource) : '(bundler)';
    bytes.set(part, (bytes.get(part) ?? 0) + 1);
  }
}
const whole = gzipSync(code, { level: 9 }).length;
console.log(`${file}: ${code.length} B minified, ${whole} B gzip -9`);
console.log('minified B  gzip share B  part');
for (const [part, n] of [...bytes].sort((a, b) => b[1] - a[1])) {
  if (n < 200) continue;
  console.log(`${String(n).padStart(11)}  ${String(Math.round((n / code.length) * whole)).padStart(12)}  ${part}`);
}
