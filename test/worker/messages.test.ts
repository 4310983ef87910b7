/**
 * The page ↔ worker boundary (lib/messages.ts): each request kind has its own reply type, and the pages' `send` and
 * lookups hand back those types without casts; over fakeBrowser's runtime messaging, what the worker's dispatcher
 * answers arrives as typed.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { backgroundLookup, send } from '@/entrypoints/popup/worker-messages';
import type { SearchIntentsResponse } from '@/lib/api/schemas/intent';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { Failure, IntentDetails, ReplyOf } from '@/lib/messages';
import { isChangedMessage } from '@/lib/messages';
import { createDispatcher, type MessageHandlers } from '@/lib/worker/dispatch';

describe('reply types by request kind', () => {
  it('types each kind’s answer', () => {
    expectTypeOf<ReplyOf<'details'>>().toEqualTypeOf<({ ok: true } & { data: IntentDetails }) | Failure>();
    expectTypeOf<ReplyOf<'track'>>().toEqualTypeOf<({ ok: true } & { added: boolean; intentId: string }) | Failure>();
    expectTypeOf<ReplyOf<'receipt'>>().toEqualTypeOf<({ ok: true } & { receipt: IntentReceipt }) | Failure>();
    // Checked by the type checker only (never run: nothing answers here).
    const typesOnly = () => {
      expectTypeOf(send({ type: 'details', intentId: 'x' })).resolves.toEqualTypeOf<ReplyOf<'details'>>();
      expectTypeOf(send({ type: 'track', intentId: 'x' })).resolves.toEqualTypeOf<ReplyOf<'track'>>();
      expectTypeOf(backgroundLookup.searchIntents({ byQueryString: 'x' })).resolves.toEqualTypeOf<SearchIntentsResponse>();
    };
    expect(typeof typesOnly).toBe('function');
  });

  it('sends through runtime.sendMessage to the dispatcher and gets its typed answer; no answer is a Failure', async () => {
    fakeBrowser.reset();
    // runtime.sendMessage as the browser has it: the worker's listener's answer, undefined when none answers.
    let worker: ((message: unknown) => Promise<unknown> | undefined) | undefined;
    Object.assign(fakeBrowser.runtime, { sendMessage: async (message: unknown) => worker?.(message) });
    const none = await send({ type: 'seen' });
    expect(none).toEqual({ ok: false, message: 'The background worker did not answer. Try again.' });
    const details: IntentDetails = { feeUsd: 1.25, prices: { origin: 2 } };
    const handlers = {
      details: async () => ({ ok: true as const, data: details }),
      track: async (r: { intentId: string }) => ({ ok: true as const, added: true, intentId: r.intentId }),
    } as Partial<MessageHandlers> as MessageHandlers;
    const dispatch = createDispatcher(handlers);
    worker = dispatch;
    const reply = await send({ type: 'details', intentId: 'abc' });
    expect(reply).toEqual({ ok: true, data: details });
    if (reply.ok) expect(reply.data.feeUsd).toBe(1.25); // typed: no cast
    const tracked = await send({ type: 'track', intentId: 'abc' });
    expect(tracked.ok && tracked.added && tracked.intentId).toBe('abc');
    expect(isChangedMessage({ type: 'intents-changed', intentIds: [] })).toBe(true);
  });
});
