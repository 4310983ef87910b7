/**
 * Reading back the extension's own exports: a JSON and a CSV round trip keep every field the export has (intentId,
 * mute, addedAt, status, notifiedAt, receipt); a bad row is reported by number and the others kept; hostile files
 * (too large, too many rows, wrong types, formula cells, not an export) are refused or bounded with a message.
 */
import { describe, expect, it } from 'vitest';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import { exportCsv, exportJson } from '@/lib/format/export';
import { importSummary, MAX_IMPORT_CHARS, MAX_IMPORT_ROWS, parseCsv, parseImport } from '@/lib/format/import';
import type { TrackedIntent } from '@/lib/store';

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const AT = Date.UTC(2026, 10, 21, 9, 30);

const ended: TrackedIntent = {
  intentId: hex(1),
  addedAt: AT,
  lastStates: [],
  phase: 'final',
  notification: 'shown',
  notifiedAt: AT + 60_000,
  status: 'FAILED',
  receipt: {
    intentId: hex(1),
    status: 'FAILED',
    originChainId: 1,
    destinationChainId: 10,
    originTransaction: { status: 'FAILED', statusReason: '-reverted, "slippage"\n=SUM(A1)', txnHash: '0xhash' },
  } as IntentReceipt,
};
const flying: TrackedIntent = {
  intentId: hex(2),
  addedAt: AT + 1_000,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
  status: 'EXECUTING',
};
const fresh: TrackedIntent = {
  intentId: 'custom-intent-id_7',
  addedAt: AT + 2_000,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
};
const muted = new Set([hex(2)]);

const ok = (text: string) => {
  const parsed = parseImport(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed;
};

describe('parseImport: round trips', () => {
  it('reads a JSON export back with every field it has', () => {
    const parsed = ok(exportJson([ended, flying, fresh], AT, muted));
    expect(parsed.format).toBe('json');
    expect(parsed.errors).toEqual([]);
    expect(parsed.intents).toEqual([
      { row: 1, intentId: hex(1), muted: false, seed: { addedAt: AT, notifiedAt: AT + 60_000, status: 'FAILED', receipt: ended.receipt } },
      { row: 2, intentId: hex(2), muted: true, seed: { addedAt: AT + 1_000, status: 'EXECUTING' } },
      { row: 3, intentId: 'custom-intent-id_7', muted: false, seed: { addedAt: AT + 2_000 } },
    ]);
  });

  it('reads a CSV export back (quoted cells, escaped formula-like text, CRLF) with every field it has but the receipt', () => {
    const parsed = ok(exportCsv([ended, flying, fresh], muted));
    expect(parsed.format).toBe('csv');
    expect(parsed.errors).toEqual([]);
    expect(parsed.intents).toEqual([
      { row: 1, intentId: hex(1), muted: false, seed: { addedAt: AT, notifiedAt: AT + 60_000, status: 'FAILED' } },
      { row: 2, intentId: hex(2), muted: true, seed: { addedAt: AT + 1_000, status: 'EXECUTING' } },
      { row: 3, intentId: 'custom-intent-id_7', muted: false, seed: { addedAt: AT + 2_000 } },
    ]);
  });

  it('reads an export of an earlier version (no muted column) and a BOM', () => {
    const csv = exportCsv([flying])
      .replace(/,muted\r\n/, '\r\n')
      .replace(/,false\r\n$/, '\r\n');
    expect(ok(`\uFEFF${csv}`).intents).toEqual([
      { row: 1, intentId: hex(2), muted: false, seed: { addedAt: AT + 1_000, status: 'EXECUTING' } },
    ]);
  });

  it('keeps the first row of an intentId and counts the repeats', () => {
    const parsed = ok(exportJson([flying, { ...flying, status: 'SUCCEEDED' }, flying], AT));
    expect(parsed.intents).toHaveLength(1);
    expect(parsed.intents[0]?.seed.status).toBe('EXECUTING');
    expect(parsed.duplicates).toBe(2);
  });
});

describe('parseImport: bad rows', () => {
  it('reports each bad JSON row by number and reason, and keeps the good ones', () => {
    const rows = [
      { intentId: hex(1) },
      { intentId: 42 },
      'not an object',
      { intentId: '0x12' },
      { intentId: hex(5), status: 7 },
      { intentId: hex(6), notifiedAt: 'yesterday' },
      { intentId: hex(7), muted: 'sometimes' },
      { intentId: hex(8), receipt: 'SUCCEEDED' },
      { intentId: hex(9), addedAt: '2026-13-45T99:00:00Z' },
      { intentId: hex(10), status: 'SUCCEEDED' },
    ];
    const parsed = ok(JSON.stringify({ intents: rows }));
    expect(parsed.intents.map((i) => i.intentId)).toEqual([hex(1), hex(10)]);
    expect(parsed.errors).toEqual([
      { row: 2, message: 'Row 2: no intent ID.' },
      { row: 3, message: 'Row 3: no intent ID.' },
      { row: 4, message: expect.stringMatching(/^Row 4: .*64 hex digits/) },
      { row: 5, message: 'Row 5: status is not valid.' },
      { row: 6, message: 'Row 6: notifiedAt is not valid.' },
      { row: 7, message: 'Row 7: muted is not valid.' },
      { row: 8, message: 'Row 8: receipt is not valid.' },
      { row: 9, message: 'Row 9: addedAt is not valid.' },
    ]);
  });

  it('refuses a CSV row holding a spreadsheet formula, and keeps the others', () => {
    const header = 'intentId,status,notifiedAt';
    const text = [header, `${hex(1)},SUCCEEDED,`, `${hex(2)},=cmd|' /C calc'!A0,`, `${hex(3)},,@SUM(1)`, `=HYPERLINK("x"),,`].join('\n');
    const parsed = ok(text);
    expect(parsed.intents.map((i) => i.intentId)).toEqual([hex(1)]);
    expect(parsed.errors).toEqual([
      { row: 2, message: 'Row 2: the status cell holds a spreadsheet formula.' },
      { row: 3, message: 'Row 3: the notifiedAt cell holds a spreadsheet formula.' },
      { row: 4, message: 'Row 4: the intentId cell holds a spreadsheet formula.' },
    ]);
  });
});

describe('parseImport: hostile files', () => {
  it('refuses a file over the size bound without reading it', () => {
    expect(parseImport(`${'x'.repeat(MAX_IMPORT_CHARS)}!`)).toEqual({ ok: false, message: expect.stringContaining('too large') });
  });

  it('refuses 100,000 rows (CSV and JSON) with the bound in the message', () => {
    const csv = ['intentId', ...Array.from({ length: 100_000 }, (_, i) => hex(i))].join('\n');
    expect(parseImport(csv)).toEqual({ ok: false, message: expect.stringContaining('more than 10,000 intents') });
    const json = JSON.stringify(Array.from({ length: 100_000 }, (_, i) => ({ intentId: hex(i) })));
    expect(parseImport(json)).toEqual({ ok: false, message: expect.stringContaining('more than 10,000 intents') });
    expect(MAX_IMPORT_ROWS).toBe(10_000);
  });

  it('reads exactly the bound', () => {
    const csv = ['intentId', ...Array.from({ length: MAX_IMPORT_ROWS }, (_, i) => hex(i))].join('\n');
    expect(ok(csv).intents).toHaveLength(MAX_IMPORT_ROWS);
  });

  it('refuses what is not an export: empty, broken JSON, JSON of another shape, CSV without an intentId column', () => {
    for (const text of ['', '  \n', '{"intents": 5}', '{broken', '[1, 2', 'name,amount\nx,1', '"a,b']) {
      const parsed = parseImport(text);
      expect(parsed.ok, text).toBe(false);
    }
    expect(parseImport('')).toEqual({ ok: false, message: 'This file is empty. Nothing was imported.' });
  });
});

describe('importSummary', () => {
  it('counts new, already tracked, ended (status or receipt) and muted among the new', () => {
    const parsed = ok(exportJson([ended, flying, fresh], AT, new Set([hex(2), 'custom-intent-id_7'])));
    expect(importSummary(parsed.intents, new Set([hex(2)]))).toEqual({ total: 3, fresh: 2, already: 1, ended: 1, muted: 1 });
  });
});

describe('parseCsv', () => {
  it('reads RFC 4180: quoted commas, quotes and line breaks; CRLF and LF', () => {
    expect(parseCsv('a,"b,1","c ""q""\r\nd"\r\ne,,f\ng', 10)).toEqual([['a', 'b,1', 'c "q"\r\nd'], ['e', '', 'f'], ['g']]);
  });
  it('stops past the row bound', () => {
    expect(parseCsv('1\n2\n3', 2)).toBeUndefined();
    expect(parseCsv('1\n2', 2)).toEqual([['1'], ['2']]);
  });
});
