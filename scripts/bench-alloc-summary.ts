/**
 * `node --import tsx scripts/bench-alloc-summary.ts <file.heapprofile> <background.js> [top]`: where the worker's
 * allocations came from, in an allocation profile of `bench-worker-heap.ts` `startAllocationSampling` (every
 * allocation sampled, collected or not). Prints the bytes allocated summed by function ("self": allocated in that
 * function's own frame; "inclusive": under it anywhere in the stack, counted once per stack), each named by its
 * function, the source file it came from and its line in `background.js`. The source file is read from the module
 * comments of a readable build (`SVC_MINIFY=0 npx wxt build`, then the bench with `BENCH_ALLOC_PROFILE=1`; a minified
 * build gives lines of one long line). Sizes in MB (2^20 bytes).
 */
import { readFileSync } from 'node:fs';

/** A node of the profile's call tree (`HeapProfiler.SamplingHeapProfileNode`). */
interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const [file, bundle, topArg] = process.argv.slice(2);
if (!file || !bundle) throw new Error('usage: bench-alloc-summary.ts <file.heapprofile> <background.js> [top]');
const top = Number(topArg ?? 40);
const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: ProfileNode };
// The source file each line of the bundle came from: the last module comment (`// lib/store/outbox.ts`) above it.
const sourceOf: string[] = [];
let current = '(bundle)';
for (const [i, line] of readFileSync(bundle, 'utf8').split('\n').entries()) {
  const m = /^\s*\/\/ ((?:\.\.\/)*[\w@.-]+(?:\/[\w@.-]+)+\.[cm]?[jt]sx?)$/.exec(line);
  if (m) current = m[1]!.replace(/^(\.\.\/)+/, '');
  sourceOf[i] = current;
}
const nameOf = ({ functionName, url, lineNumber }: ProfileNode['callFrame']) =>
  `${functionName || '(anonymous)'} ${url.endsWith(bundle.split('/').pop()!) ? `${sourceOf[lineNumber] ?? '?'} :${lineNumber + 1}` : url || '(native)'}`;

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
const walk = (node: ProfileNode, stack: ReadonlySet<string>) => {
  const name = nameOf(node.callFrame);
  self.set(name, (self.get(name) ?? 0) + node.selfSize);
  total += node.selfSize;
  const below = stack.has(name) ? stack : new Set([...stack, name]);
  for (const s of below) inclusive.set(s, (inclusive.get(s) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child, below);
};
walk(head, new Set());

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1).padStart(9);
console.log(`allocated in all: ${mb(total).trim()} MB`);
for (const [title, sums] of [
  ['self', self],
  ['inclusive', inclusive],
] as const) {
  console.log(`\n${title} (MB)`);
  for (const [name, bytes] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${mb(bytes)}  ${name}`);
}
