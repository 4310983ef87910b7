/** The one dispatcher: each request type to its handler, after its own schema; nothing else gets an answer. */
import { describe, expect, it } from 'vitest';
import type { Failure } from '@/lib/messages';
import { createDispatcher, type MessageHandlers } from '@/lib/worker/dispatch';

/** Handlers that record what they were given and answer "recorded" (a Failure fits every kind; `remove` throws). */
function recordingHandlers() {
  const calls: unknown[] = [];
  const ok = async (request: unknown): Promise<Failure> => {
    calls.push(request);
    return { ok: false, message: 'recorded' };
  };
  const handlers: MessageHandlers = {
    track: ok,
    'track-many': ok,
    'track-text': ok,
    tracked: ok,
    seen: ok,
    'clear-finished': ok,
    remove: async () => {
      throw new Error('disk full');
    },
    refresh: ok,
    retry: ok,
    resume: ok,
    receipt: ok,
    details: ok,
    lookup: ok,
    mute: ok,
    snooze: ok,
    'test-connection': ok,
    'settings-saved': ok,
  };
  return { calls, handlers, dispatch: createDispatcher(handlers) };
}

describe('createDispatcher', () => {
  it('ignores what is not a request: no type, an unknown type, an inherited name, a malformed field', () => {
    const { calls, dispatch } = recordingHandlers();
    for (const message of [
      undefined,
      'track',
      {},
      { type: 'format-disk' },
      { type: 'toString' },
      { type: '__proto__' },
      { type: 'track', intentId: 42 },
      { type: 'track', intentId: 'x'.repeat(10_001) },
      { type: 'retry', intentId: 'x'.repeat(201) },
      { type: 'lookup', operation: 'commitIntent', request: {} },
      { type: 'track', intentId: 'a', estimatedDuration: -1 },
    ]) {
      expect(dispatch(message)).toBeUndefined();
    }
    expect(calls).toEqual([]);
  });

  it('hands each valid request to its handler, without fields its schema does not name', async () => {
    const { calls, dispatch } = recordingHandlers();
    expect(await dispatch({ type: 'track', intentId: 'abc', estimatedDuration: 30, extra: 'dropped' })).toEqual({
      ok: false,
      message: 'recorded',
    });
    expect(await dispatch({ type: 'lookup', operation: 'searchIntents', request: { byQueryString: 'x' } })).toEqual({
      ok: false,
      message: 'recorded',
    });
    expect(await dispatch({ type: 'retry' })).toEqual({ ok: false, message: 'recorded' });
    expect(calls).toEqual([
      { type: 'track', intentId: 'abc', estimatedDuration: 30 },
      { type: 'lookup', operation: 'searchIntents', request: { byQueryString: 'x' } },
      { type: 'retry' },
    ]);
  });

  it('says in plain words when the browser storage does not answer or refuses, not the error text', async () => {
    const refused = createDispatcher({
      ...recordingHandlers().handlers,
      remove: async () => Promise.reject(new DOMException('write failed', 'UnknownError')),
    });
    const pending = Object.assign(new Error('store read still pending after 2000 ms'), { name: 'ReadPendingError' });
    const hung = createDispatcher({ ...recordingHandlers().handlers, remove: async () => Promise.reject(pending) });
    const words = "The browser's storage is not answering, so nothing was changed. Try again in a moment.";
    expect(await refused({ type: 'remove', intentId: 'abc' })).toEqual({ ok: false, message: words });
    expect(await hung({ type: 'remove', intentId: 'abc' })).toEqual({ ok: false, message: words });
  });

  it('turns a failing handler into a reply that says so', async () => {
    const { dispatch } = recordingHandlers();
    expect(await dispatch({ type: 'remove', intentId: 'abc' })).toEqual({ ok: false, message: 'Something went wrong: disk full' });
  });
});
