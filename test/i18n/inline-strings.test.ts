import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readLocale } from './fake-i18n';

/** The message keys: a literal that is one names a text of _locales, it is not text. */
const EN = readLocale('en');

/** Props and object keys whose string values the user reads. */
const USER_FACING = new Set(['title', 'aria-label', 'placeholder', 'alt', 'label', 'anyLabel', 'text', 'message']);
/** Two letters in a row make a word; "·", "—", "%", "→", "0x…", "×" are not words. */
const WORD = /\p{L}{2,}/u;
/** Strings with letters that are no language. */
const ALLOWED = new Set<string>([
  'https://api.example.com', // the options page's example service URL
]);
/** A literal compared with something is a value, not text. */
const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** Every `.tsx` under `dir`, and `.ts` too when `withTs`. */
function sources(dir: string, withTs: boolean): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && (e.name.endsWith('.tsx') || (withTs && e.name.endsWith('.ts'))))
    .map((e) => join(e.parentPath, e.name));
}

/** Inline user-visible strings of one source: JSX text, user-facing props and keys, string literals shown in JSX. */
function inlineStrings(fileName: string, code: string): string[] {
  const file = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const flag = (node: ts.Node, text: string) => {
    const value = text.trim();
    if (WORD.test(value) && !ALLOWED.has(value)) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      found.push(`${fileName}:${line + 1}: ${JSON.stringify(value)}`);
    }
  };
  const literalText = (node: ts.Node): string | undefined => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
    return undefined;
  };
  /** True when `node` is shown as a JSX child (not an attribute, not a call's argument such as t('key')). */
  const shownInJsx = (node: ts.Node): boolean => {
    for (let p = node.parent; p; p = p.parent) {
      if (ts.isCallExpression(p) || ts.isJsxAttribute(p) || ts.isElementAccessExpression(p) || ts.isBinaryExpression(p)) {
        if (ts.isBinaryExpression(p) && !COMPARISONS.has(p.operatorToken.kind)) continue;
        return false;
      }
      if (ts.isJsxExpression(p)) return !ts.isJsxAttribute(p.parent);
    }
    return false;
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) flag(node, node.text);
    else if (ts.isJsxAttribute(node) && USER_FACING.has(node.name.getText(file)) && node.initializer) {
      const init = node.initializer;
      const text = ts.isStringLiteral(init)
        ? init.text
        : ts.isJsxExpression(init) && init.expression
          ? literalText(init.expression)
          : undefined;
      if (text !== undefined) flag(node, text);
    } else if (ts.isPropertyAssignment(node) && USER_FACING.has(node.name.getText(file))) {
      const text = literalText(node.initializer);
      if (text !== undefined) flag(node, text);
    } else if (literalText(node) !== undefined && shownInJsx(node)) {
      flag(node, literalText(node)!);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Prose: two words in a row. In lib/ (plain TypeScript, no JSX) a sentence is what the user might read. */
const PROSE = /\p{L}{2,}[\s,;:]+\p{L}{2,}/u;
/** lib/ strings with words that are no language to translate, each with the reason. */
const ALLOWED_LIB = new Map<string, string>([
  ['BNB Chain', 'a chain’s proper name (lib/format/chains.ts)'],
  ['Arbitrum One', 'a chain’s proper name'],
  ['Arbitrum Nova', 'a chain’s proper name'],
  ['summarised:away:', 'a job state’s tag in the notification outbox (lib/notify/outbox-changes.ts), never shown'],
  ['not an object', 'why a stored record was set aside (lib/store/records.ts), kept for the logs; the popup says unreadableRecords'],
]);
/** lib/ declarations whose English is for logs and exports only: the user reads another text (named here). */
const LOG_ONLY_NAMES = new Map<string, string>([
  [
    'MESSAGES',
    'the tracker’s English record of an error (lib/tracker/transitions.ts), for logs and exports; the UI shows it by kind (lib/format/tracking-error.ts)',
  ],
  ['EXPIRED_MESSAGE', 'the tracker’s record of an expiry; the UI shows trackErrExpired by kind (lib/format/tracking-error.ts)'],
  ['describeBody', 'the diagnostic detail of SvcBadBodyError (the user reads connNotService / trackErrBadBody)'],
]);
/** Keys of lib/ objects whose value no user reads: Chrome's reason for an offscreen document, the tracker's pause note. */
const LOG_ONLY_KEYS = new Set(['justification', 'pauseReason']);
/** String methods whose argument is a pattern to find, not text to show. */
const MATCHERS = new Set(['includes', 'startsWith', 'endsWith', 'indexOf', 'test', 'match']);

/**
 * Prose and user-facing values left inline in a lib/ module. Not flagged: developer messages (`new …Error(…)`,
 * `super(…)`, `throw`, `console.*`), values (a literal compared anywhere in the file, string patterns), a tracking
 * error record `{ kind, message, at }` (English for logs and exports; the UI shows the text of its kind), imports and
 * literal types, and the documented exceptions above.
 */
function inlineLibStrings(fileName: string, code: string): string[] {
  const file = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const compared = new Set<string>();
  const literalText = (node: ts.Node): string | undefined => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
    return undefined;
  };
  const collect = (node: ts.Node) => {
    if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) {
      for (const side of [node.left, node.right]) {
        const text = literalText(side);
        if (text !== undefined) compared.add(text);
      }
    }
    ts.forEachChild(node, collect);
  };
  collect(file);
  const exempt = (node: ts.Node): boolean => {
    for (let p: ts.Node | undefined = node.parent; p; p = p.parent) {
      if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p) || ts.isLiteralTypeNode(p) || ts.isThrowStatement(p)) return true;
      if (ts.isNewExpression(p) && /Error$/.test(p.expression.getText(file))) return true;
      if (ts.isCallExpression(p)) {
        const callee = p.expression.getText(file);
        if (callee === 'super' || callee.startsWith('console.')) return true;
        if (ts.isPropertyAccessExpression(p.expression) && MATCHERS.has(p.expression.name.text)) return true;
      }
      if (ts.isPropertyAssignment(p) && LOG_ONLY_KEYS.has(p.name.getText(file))) return true;
      if (ts.isPropertyAssignment(p) && p.name.getText(file) === 'message' && ts.isObjectLiteralExpression(p.parent)) {
        const keys = p.parent.properties.map((q) => q.name?.getText(file));
        if (keys.includes('kind') && keys.includes('at')) return true;
      }
      if ((ts.isVariableDeclaration(p) || ts.isFunctionDeclaration(p)) && p.name && LOG_ONLY_NAMES.has(p.name.getText(file))) return true;
    }
    return false;
  };
  const visit = (node: ts.Node) => {
    const text = literalText(node)?.trim();
    const isKey = text !== undefined && Object.hasOwn(EN, text);
    if (text !== undefined && !isKey && !compared.has(text) && !ALLOWED_LIB.has(text)) {
      const userFacingKey = ts.isPropertyAssignment(node.parent) && USER_FACING.has(node.parent.name.getText(file));
      // A template with a word next to a space builds a sentence around its values (`Chain ${id}`).
      const sentence =
        ts.isTemplateExpression(node) &&
        [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].some((part) => /\p{L}{2,}\s|\s\p{L}{2,}/u.test(part));
      if ((PROSE.test(text) || sentence || (userFacingKey && WORD.test(text))) && !exempt(node)) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
        found.push(`${fileName}:${line + 1}: ${JSON.stringify(text)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('no user-visible string is left inline', () => {
  it('finds inline text, props, keys and JSX literals in a sample (the check itself works)', () => {
    const sample = `const a = <p title="Hello there" aria-label={'Close it'}>Track me {ok ? 'Tracked' : t('track')} · {\`\${n} intents\`}</p>;
      const b = { text: 'Oops, bad input', id: 'kept-as-is' }; const c = <input placeholder="0x…" class="wide words" />;
      const d = <p>{kind === 'finished' ? '' : 'Still going'}</p>;`;
    const found = inlineStrings('sample.tsx', sample).map((f) => f.replace(/^sample\.tsx:\d+: /, ''));
    expect(found).toEqual(['"Hello there"', '"Close it"', '"Track me"', '"Tracked"', '"intents"', '"Oops, bad input"', '"Still going"']);
  });

  it('components and entrypoints take every user-visible string from _locales', () => {
    const root = process.cwd();
    const files = [...sources(join(root, 'components'), false), ...sources(join(root, 'entrypoints'), true)];
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((f) => inlineStrings(relative(root, f), readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('finds prose and user-facing values in a lib/ sample, and leaves developer messages and values alone', () => {
    const sample = `export function chainName(id?: number) { if (id === undefined) return 'Unknown chain'; return \`Chain \${id}\`; }
      const told = inform(\`Tracking intent \${id}.\`); const n = { title: 'Tracked', kind: 'x' };
      if (!ok) throw new Error('This browser has no offscreen documents.'); console.error('tracker pump failed', e);
      class SyncFailedError extends Error { constructor() { super('Saved here, not synced'); } }
      const err = { kind: 'not-found', message: 'The service does not know it', at: 1 };
      const leg = { status: 'not started' }; if (leg.status === 'not started') go();
      if (String(e).includes('Only a single offscreen')) return; const mode = 'calm-sound';`;
    const found = inlineLibStrings('sample.ts', sample).map((f) => f.replace(/^sample\.ts:\d+: /, ''));
    expect(found).toEqual(['"Unknown chain"', '"Chain"', '"Tracking intent  ."', '"Tracked"']);
  });

  it('lib/ takes every user-visible string from _locales', () => {
    const root = process.cwd();
    const files = sources(join(root, 'lib'), true);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => inlineLibStrings(relative(root, f), readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
