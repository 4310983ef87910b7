/**
 * The context menu's "Track intent" and the omnibox against the simulator over HTTP: an intentId, a transaction hash
 * of any leg (every intent of it), text holding neither, and what the user is told each time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '@/lib/api/client';
import { SvcServiceError } from '@/lib/api/errors';
import type { ReplyOf } from '@/lib/messages';
import { createSelectionLookup, MAX_TX_CANDIDATES, transactionMessage } from '@/lib/worker/selection';
import { intentWithDestinationHash } from '../../simulator/find';
import { type Simulator, startSimulator } from '../../simulator/server';
import { useLocale } from '../i18n/fake-i18n';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const short = (s: string) => `${s.slice(0, 6)}…${s.slice(-4)}`;

/** The look-up with a recording `track` (a set of tracked ids, like the tracker's), notifications and opened tabs. */
function setUp(configured = true) {
  const tracked = new Map<string, { source?: string; estimatedDuration?: number }>();
  const told: string[] = [];
  const opened: string[] = [];
  const client = new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey });
  const lookup = createSelectionLookup({
    client: async () => (configured ? client : undefined),
    track: async (intentId, extra = {}): Promise<ReplyOf<'track'>> => {
      const added = !tracked.has(intentId);
      if (added) tracked.set(intentId, extra);
      return { ok: true, added, intentId };
    },
    inform: async (message) => told.push(message),
    openReceipt: async (intentId) => opened.push(intentId),
  });
  return { lookup, tracked, told, opened };
}

describe('trackSelection', () => {
  it('resolves a transaction hash to its intent, with the quote’s estimated duration, and says so', async () => {
    const { lookup, tracked, told } = setUp();
    const { intentId, hash } = intentWithDestinationHash(sim);
    expect(await lookup.trackSelection(`see tx ${hash.toUpperCase().replace('0X', '0x')} here`)).toEqual({
      ok: true,
      added: true,
      intentId,
    });
    const simIntent = sim.intents().find((i) => i.intentId === intentId)!;
    expect(tracked.get(intentId)).toEqual({ source: 'menu', estimatedDuration: simIntent.estimatedDuration });
    expect(told).toEqual([`Tracking intent ${short(intentId)} of transaction ${short(hash)}.`]);
  });

  it('answers added: false and says "already tracked" when the hash brings nothing new', async () => {
    const { lookup, told } = setUp();
    const { intentId, hash } = intentWithDestinationHash(sim);
    await lookup.trackSelection(hash);
    expect(await lookup.trackSelection(hash)).toEqual({ ok: true, added: false, intentId });
    expect(told[1]).toBe(`Intent ${short(intentId)} of transaction ${short(hash)} is already tracked.`);
  });

  it('tracks a selected intentId as it is, and says when it was tracked already', async () => {
    const { lookup, tracked, told } = setUp();
    const id = sim.intents()[5]!.intentId;
    expect(await lookup.trackSelection(id)).toEqual({ ok: true, added: true, intentId: id });
    expect(await lookup.trackSelection(id)).toEqual({ ok: true, added: false, intentId: id });
    expect(tracked.get(id)).toEqual({ source: 'menu' });
    expect(told).toEqual([`Tracking intent ${short(id)}.`, `Intent ${short(id)} is already tracked.`]);
  });

  it('tracks a well-formed id the service does not know as an intentId (the tracker keeps trying)', async () => {
    const { lookup, tracked } = setUp();
    const unknown = `0x${'7'.repeat(64)}`;
    expect(await lookup.trackSelection(unknown)).toEqual({ ok: true, added: true, intentId: unknown });
    expect(tracked.has(unknown)).toBe(true);
  });

  it('tracks the id without looking it up while the service is not configured', async () => {
    const { lookup, tracked } = setUp(false);
    const { hash } = intentWithDestinationHash(sim);
    expect(await lookup.trackSelection(hash)).toMatchObject({ ok: true, added: true, intentId: hash });
    expect(tracked.has(hash)).toBe(true);
  });

  it('refuses a selection with no intentId or hash, and tells the user', async () => {
    const { lookup, tracked, told } = setUp();
    expect(await lookup.trackSelection('nothing to see')).toEqual({
      ok: false,
      message: 'The selection holds no intent ID or transaction hash.',
    });
    expect(tracked.size).toBe(0);
    expect(told).toEqual(['The selection holds no intent ID or transaction hash.']);
  });
});

describe('trackSelection of a hash against a search that ignores its filter (issue 27, symptom 13)', () => {
  const hash = `0x${'ef'.repeat(32)}`;
  const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
  /** A service whose SearchIntents answers `rows` strangers whatever the filter; intent 3's origin leg has `hash`. */
  function lying(rows: number) {
    const tracked: string[] = [];
    const reads: string[] = [];
    const client = {
      searchByTransactionHash: async () => ({ intents: Array.from({ length: rows }, (_, i) => ({ intentId: id(i + 1) })) }),
      getIntentReceipt: async ({ intentId }: { intentId: string }) => {
        reads.push(intentId);
        if (intentId === hash)
          throw new SvcServiceError('GetIntentReceipt', { errorName: 'NotFound', code: 8000, msg: 'x', httpStatus: 400 });
        const txnHash = intentId === id(3) ? hash.toUpperCase().replace('0X', '0x') : `0x${'12'.repeat(32)}`;
        return { intentReceipt: { intentId, status: 'EXECUTING', originTransaction: { txnHash } } };
      },
    };
    const lookup = createSelectionLookup({
      client: async () => client,
      track: async (intentId): Promise<ReplyOf<'track'>> => {
        tracked.push(intentId);
        return { ok: true, added: true, intentId };
      },
      inform: async () => {},
      openReceipt: async () => {},
    });
    return { lookup, tracked, reads };
  }

  it('of 500 rows, only the one whose leg has the hash is tracked, and at most MAX_TX_CANDIDATES receipts are read', async () => {
    const { lookup, tracked, reads } = lying(500);
    expect(await lookup.trackSelection(hash)).toEqual({ ok: true, added: true, intentId: id(3) });
    expect(tracked).toEqual([id(3)]);
    expect(reads.filter((r) => r !== hash).length).toBeLessThanOrEqual(MAX_TX_CANDIDATES);
  });

  it('rows none of which has the hash are not tracked: the hash itself is tracked as an intentId', async () => {
    const { lookup, tracked } = lying(2);
    expect(await lookup.trackSelection(hash)).toMatchObject({ ok: true, intentId: hash });
    expect(tracked).toEqual([hash]);
  });
});

describe('transactionMessage', () => {
  const hash = `0x${'ab'.repeat(32)}`;
  const ids = [1, 2, 3].map((n) => `0x${String(n).repeat(64)}`);
  it('counts the new and the known intents of a transaction', () => {
    expect(transactionMessage(hash, ids, 3)).toBe('Tracking 3 intents of transaction 0xabab…abab.');
    expect(transactionMessage(hash, ids, 1)).toBe('Tracking 1 intent of transaction 0xabab…abab (2 already tracked).');
    expect(transactionMessage(hash, ids, 0)).toBe('The 3 intents of transaction 0xabab…abab are already tracked.');
  });
});

describe('openFromOmnibox', () => {
  it('opens the receipt of the intentId typed, and says when the text holds none', async () => {
    const { lookup, opened, told } = setUp();
    const id = `0x${'cd'.repeat(32)}`;
    await lookup.openFromOmnibox(`  ${id} `);
    await lookup.openFromOmnibox('hello');
    expect(opened).toEqual([id]);
    expect(told).toEqual(['“hello” is not an intent ID.']);
  });

  describe('in the browser’s language', () => {
    afterEach(() => useLocale('en'));
    it('answers in Spanish and Chinese', async () => {
      const { lookup, told } = setUp();
      const id = sim.intents()[6]!.intentId;
      useLocale('es');
      await lookup.openFromOmnibox('hola');
      await lookup.trackSelection(id);
      await lookup.trackSelection(id);
      useLocale('zh_CN');
      await lookup.openFromOmnibox('你好');
      expect(told).toEqual([
        '«hola» no es un ID de intent.',
        `Siguiendo el intent ${short(id)}.`,
        `El intent ${short(id)} ya se está siguiendo.`,
        '“你好” 不是 intent ID。',
      ]);
    });
  });
});
