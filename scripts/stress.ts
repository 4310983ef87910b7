/**
 * Flake hunt under load (`npm run test:stress [-- RUNS]`): runs the Chromium and Firefox e2e suites RUNS times
 * (default 10, or `STRESS_RUNS`) exactly as `npm test` runs them (both browsers' files side by side, `E2E_WORKERS`
 * at a time), while a CPU burner keeps one of the machine's cores busy the whole time, and prints one table: each
 * test, how often it ran, how often it failed. Every run's vitest JSON report and the table (Markdown) are kept in
 * `.output/stress/`. Exits 1 when any test failed in any run.
 *
 * Needs the builds (`npm run test:stress` makes them first). `STRESS_LOCK=/path` runs each suite under
 * `flock /path`, for machines where other browser suites may run at the same time. `STRESS_LOAD=COMMAND` keeps the
 * core busy with that command (run by `sh -c`; e.g. a long campaign, then a busy loop) instead of the busy loop: the
 * same load, put to use. It is killed (its whole process group) when the stress campaign ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? process.env.STRESS_RUNS ?? 10);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`RUNS must be a whole number ≥ 1 (got ${process.argv[2]})`);
const outDir = '.output/stress';
mkdirSync(outDir, { recursive: true });

/** One core kept at 100 % by a separate process (a tight loop, or `STRESS_LOAD`), for the whole campaign. */
function startBurner(): ChildProcess {
  const load = process.env.STRESS_LOAD;
  if (!load) return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  const child = spawn('sh', ['-c', load], { stdio: 'inherit', detached: true });
  child.once('exit', (code) => {
    if (code !== 0 && code !== null) console.error(`STRESS_LOAD exited with ${code}`);
  });
  return child;
}

/** The subset of vitest's JSON report read here. */
interface JsonReport {
  testResults: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults: Array<{ fullName: string; status: string; failureMessages?: string[] }>;
  }>;
}

/** Runs the e2e suites once; resolves with the report (a file that failed to load counts as a failed test). */
function runSuite(index: number): Promise<{ report: JsonReport; seconds: number }> {
  const reportPath = join(outDir, `run-${index}.json`);
  const vitest = ['vitest', 'run', '--project', 'e2e', '--project', 'e2e-firefox', `--maxWorkers=${process.env.E2E_WORKERS ?? 4}`];
  const args = [...vitest, '--reporter=dot', '--reporter=json', `--outputFile.json=${reportPath}`];
  const [command, commandArgs] = process.env.STRESS_LOCK ? ['flock', [process.env.STRESS_LOCK, 'npx', ...args]] : ['npx', args];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs as string[], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', () => {
      try {
        resolve({ report: JSON.parse(readFileSync(reportPath, 'utf8')) as JsonReport, seconds: (Date.now() - started) / 1000 });
      } catch (err) {
        reject(new Error(`run ${index}: no JSON report (${(err as Error).message})`));
      }
    });
  });
}

const burner = startBurner();
const stopBurner = () => {
  try {
    if (process.env.STRESS_LOAD && burner.pid) process.kill(-burner.pid, 'SIGKILL');
    else burner.kill('SIGKILL');
  } catch {
    // Already gone.
  }
};
process.once('exit', stopBurner);

const table = new Map<string, { runs: number; failures: number; messages: string[] }>();
const seconds: number[] = [];
try {
  for (let i = 1; i <= runs; i++) {
    console.log(`\n=== stress run ${i}/${runs} (one core busy) ===`);
    const { report, seconds: took } = await runSuite(i);
    seconds.push(took);
    for (const file of report.testResults) {
      const name = file.name.slice(file.name.indexOf('test/e2e/'));
      if (file.assertionResults.length === 0) {
        // The file failed before any test ran (a hook, an import): that is a failure of the file.
        const row = table.get(`${name} (file)`) ?? { runs: 0, failures: 0, messages: [] };
        row.runs++;
        if (file.status !== 'passed') {
          row.failures++;
          row.messages.push(`run ${i}: ${file.message ?? file.status}`);
        }
        table.set(`${name} (file)`, row);
      }
      for (const test of file.assertionResults) {
        if (test.status === 'skipped' || test.status === 'pending') continue;
        const key = `${name} › ${test.fullName}`;
        const row = table.get(key) ?? { runs: 0, failures: 0, messages: [] };
        row.runs++;
        if (test.status !== 'passed') {
          row.failures++;
          row.messages.push(`run ${i}: ${(test.failureMessages ?? []).join(' ').split('\n')[0]}`);
        }
        table.set(key, row);
      }
    }
  }
} finally {
  stopBurner();
}

const rows = [...table.entries()].sort(([a], [b]) => a.localeCompare(b));
const failed = rows.filter(([, r]) => r.failures > 0);
const lines = [
  `Stress: ${runs} run(s) of the Chromium and Firefox e2e suites with one of ${cpus().length} cores kept busy, ` +
    `${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model ?? 'unknown CPU'}; suite wall time ` +
    `${Math.min(...seconds).toFixed(0)}–${Math.max(...seconds).toFixed(0)} s.`,
  '',
  '| test | runs | failures |',
  '| --- | ---: | ---: |',
  ...rows.map(([k, r]) => `| ${k.replaceAll('|', '\\|')} | ${r.runs} | ${r.failures} |`),
  '',
  `${rows.length} tests, ${failed.length} with failures.`,
  ...failed.flatMap(([k, r]) => [`- ${k}:`, ...r.messages.map((m) => `  - ${m}`)]),
];
writeFileSync(join(outDir, 'table.md'), `${lines.join('\n')}\n`);
console.log(`\n${lines.join('\n')}\n(also in ${join(outDir, 'table.md')})`);
process.exitCode = failed.length > 0 ? 1 : 0;
