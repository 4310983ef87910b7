/**
 * `node --import tsx scripts/bench-heap-summary.ts <file.heapsnapshot> [top]`: what holds a V8 heap snapshot's memory
 * (the worker's, from `bench-worker-heap.ts`). Prints the self size summed by constructor (objects) or kind (strings,
 * code, arrays...), and the largest retained sizes: a node's retained size is what a garbage collection would free
 * if it went (its dominator subtree; Cooper, Harvey and Kennedy's iterative dominators over the strong edges), given
 * with the path of edge names from the root to it. Sizes in KB (2^10 bytes).
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] }; node_count: number };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: bench-heap-summary.ts <file.heapsnapshot> [top]');
const top = Number(topArg ?? 40);
const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const { meta } = snap.snapshot;
const NF = meta.node_fields.length;
const EF = meta.edge_fields.length;
const [nType, nName, nSelf, nEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f)) as [
  number,
  number,
  number,
  number,
];
const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f)) as [number, number, number];
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const n = snap.nodes.length / NF;
const firstEdge = new Uint32Array(n + 1);
for (let i = 0, e = 0; i < n; i++) {
  firstEdge[i] = e;
  e += snap.nodes[i * NF + nEdges]! * EF;
}
firstEdge[n] = snap.edges.length;
const typeOf = (i: number) => nodeTypes[snap.nodes[i * NF + nType]!]!;
const nameOf = (i: number) => snap.strings[snap.nodes[i * NF + nName]!]!;
const selfOf = (i: number) => snap.nodes[i * NF + nSelf]!;
const strong = (e: number) => edgeTypes[snap.edges[e + eType]!] !== 'weak';
const edgeName = (e: number) => {
  const t = edgeTypes[snap.edges[e + eType]!];
  const v = snap.edges[e + eName]!;
  return t === 'element' || t === 'hidden' ? `[${v}]` : String(snap.strings[v]);
};

// Self size by constructor or kind.
const byKind = new Map<string, { count: number; bytes: number }>();
for (let i = 0; i < n; i++) {
  const t = typeOf(i);
  const key = t === 'object' ? nameOf(i) : `(${t})`;
  const k = byKind.get(key) ?? { count: 0, bytes: 0 };
  k.count++;
  k.bytes += selfOf(i);
  byKind.set(key, k);
}
const kb = (b: number) => Math.round(b / 1024);
let total = 0;
for (const v of byKind.values()) total += v.bytes;
console.log(`${n} nodes, ${kb(total)} KB self in all`);
console.log('\nself size by constructor or kind (KB, count):');
for (const [k, v] of [...byKind].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top))
  console.log(`${String(kb(v.bytes)).padStart(8)}  ${String(v.count).padStart(7)}  ${k.slice(0, 100)}`);

// Dominators: reverse postorder from the root (node 0) over strong edges, then iterate to a fixed point.
const order = new Int32Array(n).fill(-1);
const post: number[] = [];
const stack: Array<[number, number]> = [[0, firstEdge[0]!]];
order[0] = -2;
while (stack.length > 0) {
  const frame = stack[stack.length - 1]!;
  const [v, e] = frame;
  if (e < firstEdge[v + 1]!) {
    frame[1] = e + EF;
    const to = snap.edges[e + eTo]! / NF;
    if (strong(e) && order[to] === -1) {
      order[to] = -2;
      stack.push([to, firstEdge[to]!]);
    }
  } else {
    stack.pop();
    order[v] = post.length;
    post.push(v);
  }
}
const preds: number[][] = Array.from({ length: n }, () => []);
for (let v = 0; v < n; v++) {
  if (order[v]! < 0) continue;
  for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += EF) {
    const to = snap.edges[e + eTo]! / NF;
    if (strong(e) && order[to]! >= 0) preds[to]!.push(v);
  }
}
const idom = new Int32Array(n).fill(-1);
idom[0] = 0;
const intersect = (a: number, b: number) => {
  while (a !== b) {
    while (order[a]! < order[b]!) a = idom[a]!;
    while (order[b]! < order[a]!) b = idom[b]!;
  }
  return a;
};
for (let changed = true; changed; ) {
  changed = false;
  for (let k = post.length - 2; k >= 0; k--) {
    const v = post[k]!;
    let d = -1;
    for (const p of preds[v]!) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
    if (d !== -1 && idom[v] !== d) {
      idom[v] = d;
      changed = true;
    }
  }
}
const retained = new Float64Array(n);
for (const v of post) retained[v] = selfOf(v);
for (const v of post) if (v !== 0 && idom[v]! >= 0) retained[idom[v]!] = retained[idom[v]!]! + retained[v]!;
// The edge that reaches each node from its dominator, for a readable path.
const via = new Map<number, string>();
for (let v = 0; v < n; v++)
  for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += EF) {
    const to = snap.edges[e + eTo]! / NF;
    if (idom[to] === v && !via.has(to)) via.set(to, edgeName(e));
  }
const label = (v: number) => `${typeOf(v) === 'object' ? nameOf(v) : `(${typeOf(v)}) ${nameOf(v).slice(0, 40)}`}`;
const pathOf = (v: number) => {
  const parts: string[] = [];
  for (let u = v, i = 0; u !== 0 && i < 8; u = idom[u]!, i++) parts.unshift(`${via.get(u) ?? '?'}`);
  return parts.join(' → ');
};
console.log('\nlargest retained sizes (KB), below the synthetic roots:');
const candidates = post.filter((v) => v !== 0 && !['synthetic', 'hidden'].includes(typeOf(v)));
for (const v of candidates.sort((a, b) => retained[b]! - retained[a]!).slice(0, top))
  console.log(`${String(kb(retained[v]!)).padStart(8)}  ${label(v).slice(0, 60).padEnd(60)}  ${pathOf(v).slice(0, 160)}`);

// Self size by what holds it: each node's first strong retainer as `constructor.edge` (element indices as []).
const firstRetainer = new Map<number, string>();
for (let v = 0; v < n; v++)
  for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += EF) {
    const to = snap.edges[e + eTo]! / NF;
    if (!strong(e) || firstRetainer.has(to)) continue;
    const t = edgeTypes[snap.edges[e + eType]!];
    const name = t === 'element' ? '[]' : t === 'hidden' ? '(hidden)' : edgeName(e);
    firstRetainer.set(to, `${label(v).slice(0, 40)}.${name}`);
  }
const byHolder = new Map<string, { count: number; bytes: number }>();
for (let v = 0; v < n; v++) {
  const key = `${firstRetainer.get(v) ?? '(none)'} → ${typeOf(v) === 'object' ? nameOf(v) : `(${typeOf(v)})`}`;
  const k = byHolder.get(key) ?? { count: 0, bytes: 0 };
  k.count++;
  k.bytes += selfOf(v);
  byHolder.set(key, k);
}
console.log('\nself size by first holder (holder.edge → kind; KB, count):');
for (const [k, v] of [...byHolder].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top))
  console.log(`${String(kb(v.bytes)).padStart(8)}  ${String(v.count).padStart(7)}  ${k.slice(0, 120)}`);
