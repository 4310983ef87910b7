/**
 * Unit-suite setup: Testing Library's `waitFor`/`findBy*` wait up to 10 s (its default is 1 s). Every wait names the
 * condition it waits for, so the limit only bounds a failure; under a loaded machine (two cores, the campaigns
 * beside the component tests) an IndexedDB round trip of fake-indexeddb can take longer than one second, and the
 * 1 s default failed a passing save (`options.test.tsx`). Only the component tests (`.tsx`, the only files that use
 * Testing Library) load it: importing it costs about 0.2 s, in every one of the unit project's 230-odd files before.
 */
import { expect } from 'vitest';

if (expect.getState().testPath?.endsWith('.tsx')) {
  const { configure } = await import('@testing-library/preact');
  configure({ asyncUtilTimeout: 10_000 });
}
