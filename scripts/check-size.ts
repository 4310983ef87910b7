/**
 * Size limits of `lib/` (run by `npm test`): no file over {@link MAX_FILE_LINES} lines, no function (declaration,
 * method, arrow or function expression, constructor, accessor) over {@link MAX_FUNCTION_LINES} lines — about a
 * screen. A function's lines are counted from its first to its last line, comments, blank lines and the functions
 * nested in it included: a closure that defines its helpers inside itself is as long as it reads.
 *
 * `ALLOWED` lists the exceptions, each with its reason; an entry that no longer exceeds its limit fails too, so the
 * list only shrinks. Prints every breach as `path:line  name  N lines`; exits 1 on any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** Lines a file of `lib/` may have. */
export const MAX_FILE_LINES = 300;
/** Lines a function of `lib/` may have, the functions nested in it included. */
export const MAX_FUNCTION_LINES = 80;

/** Exceptions: `path` (file limit) or `path#name` (function limit) → the reason it is allowed. */
const ALLOWED: Record<string, string> = {};

/** One breach of a limit. */
export interface Breach {
  /** `path` for a file, `path#name` for a function (the key `ALLOWED` uses). */
  key: string;
  /** 1-based line where it starts. */
  line: number;
  lines: number;
  limit: number;
}

/** The breaches in one source text (`path` relative to the project, for the keys). */
export function breachesOf(path: string, text: string): Breach[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const out: Breach[] = [];
  const fileLines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (fileLines > MAX_FILE_LINES) out.push({ key: path, line: 1, lines: fileLines, limit: MAX_FILE_LINES });

  const visit = (node: ts.Node, enclosing: string): void => {
    const isFn = ts.isFunctionLike(node) && 'body' in node && (node as ts.FunctionLikeDeclaration).body !== undefined;
    const name = isFn ? functionName(node as ts.FunctionLikeDeclaration, enclosing) : enclosing;
    if (isFn) {
      const span = lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
      if (span > MAX_FUNCTION_LINES) {
        out.push({ key: `${path}#${name}`, line: lineOf(node.getStart(source)) + 1, lines: span, limit: MAX_FUNCTION_LINES });
      }
    }
    node.forEachChild((child) => visit(child, name));
  };
  visit(source, '');
  return out;
}

/** A readable name for a function: its own, its variable's or property's, else `<anonymous>` within `enclosing`. */
function functionName(node: ts.FunctionLikeDeclaration, enclosing: string): string {
  const own = node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
  const parent = node.parent;
  const holder =
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    ts.isIdentifier(parent.name)
      ? parent.name.text
      : undefined;
  const cls = ts.isClassLike(parent) && parent.name ? `${parent.name.text}.` : '';
  const base = own ?? holder ?? (ts.isConstructorDeclaration(node) ? 'constructor' : '<anonymous>');
  return enclosing && !cls ? `${enclosing}>${cls}${base}` : `${cls}${base}`;
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** Checks every source under `root` (default `lib`); returns the breaches not allowed and the allowances not used. */
export function check(root = 'lib'): { breaches: Breach[]; unused: string[] } {
  const all = [...sources(root)].flatMap((file) => breachesOf(relative('.', file), readFileSync(file, 'utf8')));
  const used = new Set(all.map((b) => b.key));
  return {
    breaches: all.filter((b) => !(b.key in ALLOWED)),
    unused: Object.keys(ALLOWED).filter((key) => !used.has(key)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { breaches, unused } = check();
  for (const b of breaches) console.log(`${b.key.replace('#', `:${b.line}  `)}  ${b.lines} lines (limit ${b.limit})`);
  for (const key of unused) console.log(`${key}: allowed in scripts/check-size.ts but within its limit now: remove it from ALLOWED`);
  if (breaches.length || unused.length) process.exit(1);
  console.log(`size: every file of lib/ within ${MAX_FILE_LINES} lines, every function within ${MAX_FUNCTION_LINES}`);
}
