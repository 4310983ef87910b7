/**
 * Unit-suite setup: Testing Library's `waitFor`/`findBy*` wait up to 10 s (its default is 1 s). Every wait names the
 * condition it waits for, so the limit only bounds a failure; under a loaded machine (two cores, the campaigns
 * beside the component tests) an IndexedDB round trip of fake-indexeddb can take longer than one second, and the
 * 1 s default failed a passing save (`options.test.tsx`).
 */
import { configure } from '@testing-library/preact';

configure({ asyncUtilTimeout: 10_000 });
