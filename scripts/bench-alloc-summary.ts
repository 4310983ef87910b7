/**
 * `node --import tsx scripts/bench-alloc-summary.ts <file.heapprofile|file.cpuprofile> <background.js> [top]`: where
 * the worker's allocations or time went. An allocation profile of `bench-worker-heap.ts` `startAllocationSampling`
 * (every allocation sampled, collected or not) is summed in MB (2^20 bytes); a CPU profile of `startCpuProfile`
 * (`BENCH_CPU_PROFILE=1`, the desk row) in ms of the worker's thread (each sample counted for the time to the next).
 * Prints the sums by function ("self": in that function's own frame; "inclusive": under it anywhere in the stack,
 * counted once per stack), each named by its function, the source file it came from and its line in `background.js`.
 * The source file is read from the module comments of a readable build (`SVC_MINIFY=0 npx wxt build`, then the bench;
 * a minified build gives lines of one long line).
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
/** A CPU profile (`Profiler.Profile`): its nodes by id, and each sample's node and the µs since the one before. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: ProfileNode['callFrame']; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as { head: ProfileNode } | CpuProfile;
const cpu = !('head' in profile);
/** The CPU profile as the allocation profile's tree, with each node's time (ms) as its `selfSize`. */
const treeOf = (p: CpuProfile): ProfileNode => {
  const byId = new Map(p.nodes.map((n) => [n.id, { callFrame: n.callFrame, selfSize: 0, children: [] as ProfileNode[] }]));
  for (const n of p.nodes) for (const c of n.children ?? []) byId.get(n.id)!.children.push(byId.get(c)!);
  // timeDeltas[i + 1] is the time from sample i to the next: sample i's time.
  p.samples.forEach((id, i) => {
    byId.get(id)!.selfSize += (p.timeDeltas[i + 1] ?? 0) / 1000;
  });
  return byId.get(p.nodes[0]!.id)!;
};
const head = 'head' in profile ? profile.head : treeOf(profile);
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

const unit = cpu ? 'ms' : 'MB';
const mb = (size: number) => (cpu ? size : size / 2 ** 20).toFixed(1).padStart(9);
console.log(`${cpu ? 'sampled' : 'allocated'} in all: ${mb(total).trim()} ${unit}`);
for (const [title, sums] of [
  ['self', self],
  ['inclusive', inclusive],
] as const) {
  console.log(`\n${title} (${unit})`);
  for (const [name, bytes] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${mb(bytes)}  ${name}`);
}
