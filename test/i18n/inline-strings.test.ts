import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

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
});
