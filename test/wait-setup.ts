/**
 * Unit-suite setup: Testing Library's `waitFor`/`findBy*` wait up to 10 s (its default is 1 s). Every wait names the
 * condition it waits for, so the limit only bounds a failure; under a loaded machine (two cores, the campaigns
 * beside the component tests) an IndexedDB round trip of fake-indexeddb can take longer than one second, and the
 * 1 s default failed a passing save (`options.test.tsx`). Only the component tests (`.tsx`, the only files that use
 * Testing Library) load it: importing it costs about 0.2 s, in every one of the unit project's 230-odd files before.
 */
import { expect, vi } from 'vitest';

/**
 * `vi.waitFor` waits up to 10 s unless told (its default is 1 s), for the same reason: on a loaded machine (the unit
 * project once ran at a lower priority beside both browsers' e2e suites) a wait on real timers (engine.test.ts: ten
 * intents answered 20 ms apart) took over a second. Vitest has no setting for it, hence the wrap; once per worker, as
 * with `isolate: false` this file runs before each test file in the same module graph.
 */
const WRAPPED = Symbol.for('svc.waitFor.wrapped');
if (!(WRAPPED in vi.waitFor)) {
  const waitFor = vi.waitFor;
  const patient: typeof vi.waitFor = (callback, options) =>
    waitFor(callback, typeof options === 'number' ? options : { timeout: 10_000, ...options });
  Object.assign(patient, { [WRAPPED]: true });
  vi.waitFor = patient;
}

if (expect.getState().testPath?.endsWith('.tsx')) {
  const { configure } = await import('@testing-library/preact');
  configure({ asyncUtilTimeout: 10_000 });
}
