/**
 * Hostile tests of each JSON-RPC request's time-out on the platform's timers (lib/chain/rpc.ts `createChainReader`):
 * timers cleared on every outcome, a fetch deaf to the abort, the time-out per request, a stale timer, and the
 * concurrent requests of one observation each with its own timer.
 */
import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { describe, expect, it } from 'vitest';
import { createChainReader } from '@/lib/chain/rpc';
import type { Timers } from '@/lib/platform';
import { type RpcFault, rpcFetch, SimChain } from '../world/chain-sim';

const RPC = 'https://rpc.example';
const TOKEN = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const HASH = `0x${'ab'.repeat(32)}` as const;

/** A chain of id 8453 holding HASH three blocks under its head. */
function chainFetch(fault: (method: string) => RpcFault | undefined = () => undefined) {
  const chain = new SimChain(8453);
  chain.include({ hash: HASH, status: 'success', token: TOKEN, to: TO, amount: 5n });
  chain.mine(3);
  return { chain, fetchFn: rpcFetch(new Map([[RPC, chain]]), (method) => fault(method)) };
}

/** Timers fired by hand: each armed timer with its delay; `fire(id)` runs one, `fireAll()` every one armed. */
function handTimers() {
  const armed = new Map<number, { fn: () => void; ms: number }>();
  /** Every timer ever set, also cleared ones (what a late firing would run). */
  const all = new Map<number, () => void>();
  let n = 0;
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      armed.set(++n, { fn, ms });
      all.set(n, fn);
      return n;
    },
    clearTimeout: (handle) => void armed.delete(handle as number),
  };
  const fire = (id: number) => {
    const t = armed.get(id);
    armed.delete(id);
    t?.fn();
  };
  return { timers, armed, all, fire, fireAll: () => [...armed.keys()].forEach(fire) };
}

/** Virtual-time timers: `advance(ms)` runs, in order, the timers due. */
function virtualTimers() {
  let now = 0;
  let n = 0;
  const armed = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      armed.set(++n, { at: now + ms, fn });
      return n;
    },
    clearTimeout: (handle) => void armed.delete(handle as number),
  };
  const advance = async (ms: number) => {
    const end = now + ms;
    for (;;) {
      const next = [...armed.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      armed.delete(next[0]);
      now = next[1].at;
      next[1].fn();
      await flush();
    }
    now = end;
    await flush();
  };
  return { timers, advance, now: () => now };
}

/** Lets pending promise chains (response bodies included) run. */
const flush = () => new Promise((r) => setTimeout(r, 5));

/** Which methods a fetch was asked, and a fetch whose answers to `held` methods wait for `release(method)`. */
function heldFetch(inner: typeof fetch, held: string[]) {
  const waiting = new Map<string, () => void>();
  const fetchFn: typeof fetch = async (input, init) => {
    const { method } = JSON.parse(String(init?.body)) as { method: string };
    if (held.includes(method)) await new Promise<void>((r) => waiting.set(method, r));
    return inner(input, init);
  };
  return { fetchFn, release: (method: string) => waiting.get(method)?.() };
}

/** Settles `p` into what it gave (value or error), or 'pending' once `flush` has passed. */
const outcome = (p: Promise<unknown>) =>
  Promise.race([
    p.then(
      (v) => v,
      (e: unknown) => e,
    ),
    flush().then(() => 'pending'),
  ]);

describe('each request’s timer is cleared, whatever the outcome', () => {
  it.each<[RpcFault, new (...args: never[]) => Error]>([
    ['rpcError', RpcRequestError],
    ['http500', HttpRequestError],
  ])('a %s answer rejects with its own error (not a time-out) and leaves no timer armed', async (fault, errorClass) => {
    const hand = handTimers();
    const { fetchFn } = chainFetch((m) => (m === 'eth_getTransactionReceipt' ? fault : undefined));
    const error = await createChainReader(RPC, fetchFn, hand.timers, 50)
      .observe(HASH, false)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(hand.armed.size).toBe(0);
  });

  it('an RPC error on one of the concurrent requests rejects and leaves no timer armed once the others answered', async () => {
    const hand = handTimers();
    const { fetchFn } = chainFetch((m) => (m === 'eth_blockNumber' ? 'rpcError' : undefined));
    await expect(createChainReader(RPC, fetchFn, hand.timers, 50).observe(HASH, false)).rejects.toBeInstanceOf(RpcRequestError);
    await flush();
    expect(hand.armed.size).toBe(0);
  });

  it.each<[string, typeof fetch]>([
    ['rejects', () => Promise.reject(new TypeError('fetch failed'))],
    [
      'throws before returning a promise',
      () => {
        throw new TypeError('fetch failed');
      },
    ],
  ])('a fetch that %s rejects with an HTTP error (not a time-out) and leaves no timer armed', async (_, fetchFn) => {
    const hand = handTimers();
    const error = await createChainReader(RPC, fetchFn, hand.timers, 50)
      .observe(HASH, false)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpRequestError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(hand.armed.size).toBe(0);
  });
});

describe('a fetch that ignores the abort signal', () => {
  // The platform's fetch is the only way out; the time-out is promised to end "a read an endpoint never answers".
  // A fetch deaf to the signal (a platform double, a wrapper dropping `init.signal`) never settles.
  it('still rejects with TimeoutError when the request’s timer fires', async () => {
    const hand = handTimers();
    const deaf: typeof fetch = () => new Promise<Response>(() => {});
    const read = createChainReader(RPC, deaf, hand.timers, 50).observe(HASH, false);
    expect(await outcome(read)).toBe('pending');
    hand.fireAll();
    expect(await outcome(read)).toBeInstanceOf(TimeoutError);
  });

  it('does not wait past its timer for an answer that comes late', async () => {
    const hand = handTimers();
    const { fetchFn: inner } = chainFetch();
    const { fetchFn, release } = heldFetch(inner, ['eth_getTransactionReceipt']);
    const deaf: typeof fetch = (input, init) => fetchFn(input, { ...init, signal: null });
    const read = createChainReader(RPC, deaf, hand.timers, 50).observe(HASH, false);
    await flush();
    hand.fireAll();
    const early = await outcome(read);
    // Answered after the time-out: the read is over already, as a time-out.
    release('eth_getTransactionReceipt');
    await flush();
    expect(early).toBeInstanceOf(TimeoutError);
  });
});

describe('the time-out is per request, not per observation', () => {
  /** A fetch answering each request `delayMs` of virtual time after it is sent (abortable meanwhile). */
  function slowFetch(inner: typeof fetch, timers: Timers, delayMs: (method: string) => number): typeof fetch {
    return (input, init) =>
      new Promise<Response>((resolve, reject) => {
        const { method } = JSON.parse(String(init?.body)) as { method: string };
        const t = timers.setTimeout(() => inner(input, init).then(resolve, reject), delayMs(method));
        init?.signal?.addEventListener('abort', () => {
          timers.clearTimeout(t);
          reject(new DOMException('The operation was aborted.', 'AbortError'));
        });
      });
  }

  it('an observation whose requests each answer within the time-out succeeds, though it lasts longer than one', async () => {
    const v = virtualTimers();
    const { fetchFn: inner } = chainFetch();
    const read = createChainReader(
      RPC,
      slowFetch(inner, v.timers, () => 40),
      v.timers,
      50,
    ).observe(HASH, false);
    let done: unknown = 'pending';
    read.then(
      (o) => (done = o),
      (e: unknown) => (done = e),
    );
    await v.advance(100);
    expect(done).toMatchObject({ chainId: 8453, receipt: { status: 'success' } });
  });

  it('a request sent after another answered has its whole time-out from its own start', async () => {
    const v = virtualTimers();
    const { fetchFn: inner } = chainFetch();
    // The receipt answers at 40; the chain id never does (it is sent at 40: its time-out ends at 90, not at 50).
    const fetchFn = slowFetch(inner, v.timers, (m) => (m === 'eth_chainId' ? 1e9 : m === 'eth_getTransactionReceipt' ? 40 : 1));
    let done: unknown = 'pending';
    createChainReader(RPC, fetchFn, v.timers, 50)
      .observe(HASH, false)
      .then(
        (o) => (done = o),
        (e: unknown) => (done = e),
      );
    await v.advance(89);
    expect(done).toBe('pending');
    await v.advance(1);
    expect(done).toBeInstanceOf(TimeoutError);
  });
});

describe('a timer that fires late', () => {
  it('a request’s timer fired after its answer (timers that ignore clearTimeout) aborts none of the requests still in flight', async () => {
    const hand = handTimers();
    const { fetchFn: inner } = chainFetch();
    const { fetchFn, release } = heldFetch(inner, ['eth_chainId']);
    const read = createChainReader(RPC, fetchFn, hand.timers, 50).observe(HASH, false);
    await flush();
    // The receipt answered (its timer cleared), the chain id is still being asked: fire every timer ever set but
    // the chain id's own, as timers that ignore clearTimeout would.
    const chainIdTimer = [...hand.armed.keys()];
    expect(chainIdTimer).toHaveLength(1);
    for (const [id, fn] of hand.all) if (!chainIdTimer.includes(id)) fn();
    release('eth_chainId');
    const seen = await read;
    expect(seen.chainId).toBe(8453);
    // And after the observation: every timer fired late changes nothing.
    for (const fn of hand.all.values()) fn();
    await flush();
    expect(hand.armed.size).toBe(0);
  });
});

describe('the concurrent requests of one observation', () => {
  it('each has its own timer: the one that fires rejects the observation as a time-out, the others are cleared as they answer', async () => {
    const hand = handTimers();
    const { fetchFn } = chainFetch((m) => (m === 'eth_chainId' || m === 'eth_getBlockByNumber' ? 'timeout' : undefined));
    const read = createChainReader(RPC, fetchFn, hand.timers, 50).observe(HASH, false);
    read.catch(() => {});
    await flush();
    // The receipt and the head answered; the chain id and the block hang, each on its own timer.
    expect([...hand.armed.values()].map((t) => t.ms)).toEqual([50, 50]);
    const [chainIdTimer, blockTimer] = [...hand.armed.keys()];
    hand.fire(chainIdTimer!);
    expect(await outcome(read)).toBeInstanceOf(TimeoutError);
    // The block's request is still in flight with its timer; firing it later ends it without an unhandled rejection.
    expect([...hand.armed.keys()]).toEqual([blockTimer]);
    hand.fire(blockTimer!);
    await flush();
    expect(hand.armed.size).toBe(0);
  });
});
