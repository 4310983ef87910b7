import { describe, expect, it } from 'vitest';
import { earlierRows, mergeResults, type ResultRow, type ResultsFile } from '../../scripts/bench-results';

const file: ResultsFile<ResultRow & { p99?: number }> = {
  machine: { date: '2026-11-22T10:00:00.000Z', cpu: 'AMD EPYC', chromium: 'Chromium 156.0.8078.79', settings: { quick: false } },
  results: [
    { kind: 'tracker', intents: 100, p99: 970 },
    { row: 'desk browser 5000', kind: 'tracker (browser)', intents: 5000, desk: {}, measuredAt: '2026-11-26T17:38:00.000Z' },
    { row: 'chain 500', kind: 'tracker', intents: 500, chain: {}, measuredAt: '2026-11-26T19:00:00.000Z' },
  ],
};

describe('bench/results.json merge', () => {
  it('keeps every row this run did not measure, even on a run of the default parts (no chain row measured)', () => {
    const measured = [{ row: 'tracker 100', kind: 'tracker', intents: 100, p99: 1000, measuredAt: '2026-11-26T23:00:00.000Z' }];
    const merged = mergeResults(earlierRows(file), measured);
    expect(merged.map((r) => r.row)).toEqual(['tracker 100', 'desk browser 5000', 'chain 500']);
    expect(merged.find((r) => r.row === 'tracker 100')?.p99).toBe(1000);
    expect(merged.find((r) => r.row === 'chain 500')?.measuredAt).toBe('2026-11-26T19:00:00.000Z');
  });

  it("dates an older file's rows and gives them the file's machine, without the run's settings", () => {
    const [first] = earlierRows(file);
    expect(first).toMatchObject({ row: 'tracker 100', measuredAt: '2026-11-22T10:00:00.000Z' });
    expect(first?.machine).toEqual({ date: '2026-11-22T10:00:00.000Z', cpu: 'AMD EPYC', chromium: 'Chromium 156.0.8078.79' });
  });

  it('a row measured again replaces only itself; a memory row sits between the desk and chain rows', () => {
    const measured = [
      { row: 'desk browser 5000', kind: 'tracker (browser)', intents: 5000, desk: { again: true } },
      { row: 'memory browser 5000', kind: 'tracker (browser)', intents: 5000, memory: {} },
    ];
    const merged = mergeResults(earlierRows(file), measured);
    expect(merged.map((r) => r.row)).toEqual(['tracker 100', 'desk browser 5000', 'memory browser 5000', 'chain 500']);
    expect(merged.filter((r) => r.row === 'desk browser 5000')).toEqual([measured[0]]);
  });

  it('an empty or missing file gives the measured rows alone', () => {
    expect(earlierRows(undefined)).toEqual([]);
    expect(mergeResults([], [{ kind: 'baseline', intents: 1 }])).toEqual([{ kind: 'baseline', intents: 1 }]);
  });
});
