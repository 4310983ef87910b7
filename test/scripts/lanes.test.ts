/**
 * scripts/lanes.sh, which `npm test` (scripts/test.sh) uses to run its lanes and to stop one whole: each case is a
 * bash script that sources it, starts real processes and reports which of them are still running afterwards.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const LANES = resolve(__dirname, '../../scripts/lanes.sh');

/** Runs `body` in bash after sourcing lanes.sh; `alive <pid>` prints "<pid> running" or "<pid> gone". */
function bash(body: string, timeout = 30_000): { stdout: string; stderr: string; status: number | null } {
  const script = `source ${JSON.stringify(LANES)}
alive() { if lanes_alive "$1"; then echo "$1 running"; else echo "$1 gone"; fi; }
${body}`;
  const out = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout });
  return { stdout: out.stdout, stderr: out.stderr, status: out.status };
}

/** The PID a script printed after `label=`. */
function pidOf(stdout: string, label: string): string {
  const m = new RegExp(`^${label}=(\\d+)$`, 'm').exec(stdout);
  if (!m) throw new Error(`no ${label}= in:\n${stdout}`);
  return m[1]!;
}

describe.runIf(process.platform === 'linux')('scripts/lanes.sh', () => {
  it('stops a process that double-forked away from its lane, and leaves the other lanes running', () => {
    const out = bash(`
lane_start a bash -c '(sleep 300 >/dev/null 2>&1 & echo "orphan=$!" > "$0") ; exec sleep 300' /tmp/svc-lanes-$$.pid
lane_start b sleep 300 >/dev/null 2>&1
for _ in $(seq 50); do [ -s /tmp/svc-lanes-$$.pid ] && break; sleep 0.1; done
cat /tmp/svc-lanes-$$.pid; rm -f /tmp/svc-lanes-$$.pid
echo "b=\${lane_pid[b]}"
lane_stop a
`);
    const orphan = pidOf(out.stdout, 'orphan');
    const b = pidOf(out.stdout, 'b');
    const after = bash(`alive ${orphan}; alive ${b}; kill ${b} 2>/dev/null`);
    expect(out.stderr).toBe('');
    expect(after.stdout).toContain(`${orphan} gone`);
    expect(after.stdout).toContain(`${b} running`);
  });

  it('ends without a KILL when every process of the lanes ends on TERM', () => {
    const out = bash(`
lane_start a bash -c 'echo "a=$$"; exec sleep 300'
lane_start b bash -c 'echo "b=$$"; exec sleep 300'
sleep 0.3
lane_stop a b
echo done
`);
    expect(out.stdout).toContain('done');
    expect(out.stderr).not.toContain('still running');
    const gone = bash(`alive ${pidOf(out.stdout, 'a')}; alive ${pidOf(out.stdout, 'b')}`);
    expect(gone.stdout).not.toContain('running');
  });

  it('kills what ignores TERM after the grace period and names it', () => {
    const out = bash(
      `
lane_start a bash -c 'trap "" TERM; echo "stubborn=$$"; while :; do sleep 0.1; done'
sleep 0.5
lane_stop a
`,
      60_000,
    );
    const stubborn = pidOf(out.stdout, 'stubborn');
    expect(out.stderr).toMatch(new RegExp(`still running 5 s after TERM, killed: .*\\b${stubborn}\\b`));
    expect(bash(`alive ${stubborn}`).stdout).toContain(`${stubborn} gone`);
  }, 90_000); // a 5 s grace period, and /proc scans that take seconds on a loaded machine

  it('stops what a lane starts while it is being stopped', () => {
    // The lane ignores TERM (and so do its sleeps: an ignored signal stays ignored across exec) and starts a new
    // process every 0.3 s, through the grace period.
    const out = bash(
      `
lane_start a bash -c 'trap "" TERM; while :; do sleep 300 & sleep 0.3; done' >/dev/null 2>&1
sleep 1
lane_stop a 2>/dev/null
sleep 0.5
echo "left=$(lanes_tagged a | tr '\\n' ' ')"
`,
      60_000,
    );
    expect(out.stdout).toMatch(/^left=\s*$/m);
  }, 90_000);

  it('does not signal a PID a lane had once it was waited for (the PID may be another process by then)', () => {
    // A process that is not this script's child and carries no lane's tag stands for the PID reused by another.
    const out = bash(`
lane_start a true
wait "\${lane_pid[a]}"
(sleep 300 >/dev/null 2>&1 & echo "other=$!")
`);
    const other = pidOf(out.stdout, 'other');
    const stop = bash(`
lane_pid[a]=${other}
lane_stop a
alive ${other}
kill ${other} 2>/dev/null
`);
    expect(stop.stdout).toContain(`${other} running`);
  });
});
