/**
 * The recording copy of a build (drivers/fixtures/recorder.ts): the copy the e2e suites load must be the build as it is
 * now, page files included, and the same copy for the same build (an unpacked extension's id comes from its folder).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingBuild } from '../../drivers/fixtures/recorder';

const made: string[] = [];
const RUN = randomUUID();
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A minimal MV3 build: a classic worker and a popup with its CSS in a sub-folder. */
function fakeBuild(css: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-recorder-test-'));
  made.push(dir);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ manifest_version: 3, background: { service_worker: 'background.js' } }));
  // A file of its own, so that its copy's folder is not another test run's (the folders are named by content).
  writeFileSync(join(dir, 'background.js'), `self.worker = ${JSON.stringify(RUN)};\n`);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'popup.css'), css);
  return dir;
}

describe('recordingBuild', () => {
  it('makes a new copy when only a page file changed, and reuses the copy of an unchanged build', () => {
    const build = fakeBuild(':root { --muted: #a0a8b3; }');
    const first = recordingBuild(build);
    made.push(first);
    expect(recordingBuild(build)).toBe(first);

    writeFileSync(join(build, 'assets', 'popup.css'), ':root { --muted: #30343b; }');
    const second = recordingBuild(build);
    made.push(second);
    expect(second).not.toBe(first);
    expect(readFileSync(join(second, 'assets', 'popup.css'), 'utf8')).toBe(':root { --muted: #30343b; }');
    // The worker is wrapped: the manifest names the recorder's entry, which loads the build's own worker.
    const manifest = JSON.parse(readFileSync(join(second, 'manifest.json'), 'utf8')) as { background: { service_worker: string } };
    expect(manifest.background.service_worker).not.toBe('background.js');
    expect(readFileSync(join(second, manifest.background.service_worker), 'utf8')).toContain('"/background.js"');
  });

  it('makes a new copy when a file is only renamed', () => {
    const build = fakeBuild('p { color: red; }');
    const first = recordingBuild(build);
    made.push(first);
    renameSync(join(build, 'assets', 'popup.css'), join(build, 'assets', 'panel.css'));
    const second = recordingBuild(build);
    made.push(second);
    expect(second).not.toBe(first);
    expect(readFileSync(join(second, 'assets', 'panel.css'), 'utf8')).toBe('p { color: red; }');
  });

  it('gives two folders holding the same files, written in opposite orders, the same copy', () => {
    const files: [string, string][] = [
      ['manifest.json', JSON.stringify({ manifest_version: 3, background: { service_worker: 'background.js' } })],
      ['background.js', `self.worker = ${JSON.stringify(RUN)};\n`],
      ['b.html', '<p>b</p>'],
      ['m.html', '<p>m</p>'],
      ['z.html', '<p>z</p>'],
    ];
    const write = (order: [string, string][]) => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-recorder-test-'));
      made.push(dir);
      for (const [name, text] of order) writeFileSync(join(dir, name), text);
      return dir;
    };
    const first = recordingBuild(write(files));
    made.push(first);
    expect(recordingBuild(write([...files].reverse()))).toBe(first);
  });

  it('copies a symbolic link as the file it points to, and a change behind the link makes a new copy', () => {
    const build = fakeBuild('a { }');
    const outside = mkdtempSync(join(tmpdir(), 'svc-recorder-test-'));
    made.push(outside);
    writeFileSync(join(outside, 'shared.css'), 'b { color: blue; }');
    symlinkSync(join(outside, 'shared.css'), join(build, 'assets', 'shared.css'));
    const first = recordingBuild(build);
    made.push(first);
    expect(readFileSync(join(first, 'assets', 'shared.css'), 'utf8')).toBe('b { color: blue; }');
    writeFileSync(join(outside, 'shared.css'), 'b { color: green; }');
    const second = recordingBuild(build);
    made.push(second);
    expect(second).not.toBe(first);
    expect(readFileSync(join(second, 'assets', 'shared.css'), 'utf8')).toBe('b { color: green; }');
  });
});
