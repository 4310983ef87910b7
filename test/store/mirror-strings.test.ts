/**
 * What the mirror's records hold of the strings unique to an intent (lib/store/intern.ts `compactRecord`,
 * lib/tracker/mirror.ts): one instance of each intentId, however many fields name it and however often its record is
 * written, and one of each transaction hash per record. Read from a heap snapshot of a small Node process
 * (test/store/heap/mirror-strings.ts): string identity is not observable from JavaScript.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./heap/mirror-strings.ts', import.meta.url));

describe('the strings of the records the mirror holds', () => {
  it('are one instance per intentId and per transaction hash', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', CHILD], { encoding: 'utf8', timeout: 60_000 });
    const { held, copies } = JSON.parse(out) as { held: number; copies: Record<string, number> };
    expect(held).toBe(20);
    const of = (tag: string) => Object.entries(copies).filter(([v]) => v.startsWith(`0x${tag}`));
    // 20 intents: each id in the record, its receipt, three legs and the summary (6 fields, written 4 times).
    for (const tag of ['ab', 'cd', 'ef']) {
      expect(of(tag)).toHaveLength(20);
      for (const [value, n] of of(tag)) expect({ value, n }).toEqual({ value, n: 1 });
    }
  });
});
