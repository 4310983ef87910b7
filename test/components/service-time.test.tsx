// @vitest-environment happy-dom
/**
 * The popup's times are on the service's clock (issue 20, "One clock"): with the user's clock 10 minutes fast or
 * 10 minutes slow, an intent the service updated 2 minutes ago reads "2 minutes ago" in the tracked list, because
 * the popup adds the offset the worker published (lib/worker/service-offset.ts) to its clock.
 */
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TrackedIntentRow } from '@/components/TrackedIntentRow';
import { useTrackedIntents } from '@/entrypoints/popup/hooks/useTrackedIntents';
import { serviceOffsetStore } from '@/entrypoints/popup/stores';
import type { TrackedIntent } from '@/lib/store';

const MIN = 60_000;
/** The service's time during the test. */
const SERVICE_NOW = Date.parse('2026-11-24T03:00:00Z');
const noop = () => {};

const intent: TrackedIntent = {
  intentId: `0x${'ab'.repeat(32)}`,
  addedAt: SERVICE_NOW - 5 * MIN,
  lastStates: [],
  phase: 'final',
  notification: 'shown',
  status: 'SUCCEEDED',
  receipt: {
    intentId: `0x${'ab'.repeat(32)}`,
    status: 'SUCCEEDED',
    originChainId: 42161,
    destinationChainId: 8453,
    createdAt: new Date(SERVICE_NOW - 4 * MIN).toISOString(),
    updatedAt: new Date(SERVICE_NOW - 2 * MIN).toISOString(),
  },
} as TrackedIntent;

function Row() {
  const { now, intents } = useTrackedIntents();
  return intents ? (
    <ul>
      <TrackedIntentRow intent={intent} now={now} onOpen={noop} onRemove={noop} />
    </ul>
  ) : null;
}

describe('the popup reads times on the service clock', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  for (const [name, skew] of [
    ['10 minutes fast', 10 * MIN],
    ['10 minutes slow', -10 * MIN],
  ] as const) {
    it(`the user's clock ${name}: updated 2 minutes ago on the service reads "2 minutes ago"`, async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: SERVICE_NOW + skew });
      // What the worker published: service minus local.
      await serviceOffsetStore.set(-skew);
      render(<Row />);
      expect((await screen.findByText(/ago$/)).textContent).toBe('2 minutes ago');
    });
  }

  it('without the offset (the local clock alone), the fast clock would read "12 minutes ago"', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: SERVICE_NOW + 10 * MIN });
    await serviceOffsetStore.set(0);
    render(<Row />);
    expect((await screen.findByText(/ago$/)).textContent).toBe('12 minutes ago');
  });
});
