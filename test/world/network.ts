/**
 * The network of the simulated world: the fake Svc service of test/tracker/fake-service.ts behind `platform.fetch`,
 * speaking the service's wire format (POST /rpc/Svc/<Method>, JSON, webrpc error bodies, `Date` and `Retry-After`
 * headers), with the service's faults drawn by the seed at each request: transport faults (500, reset, a body that
 * is not JSON, no answer), 429 with a `Retry-After` from 0 s to days in both forms (delta seconds, HTTP-date) or in
 * milliseconds by mistake, a lying `Date`, `updatedAt` ahead of the `Date`, a non-final status moved backwards,
 * integers above 2^53 in numeric fields, and answers about another intent (GetIntent too). Every request is logged in
 * the service's log (test/tracker/fake-service.ts `LogEntry`), with what the world did to it.
 */
import type { Lane } from '@/lib/api/budget';
import { SvcAbortedError, SvcBadBodyError, SvcNetworkError, SvcServiceError, SvcTimeoutError } from '@/lib/api/errors';
import type { FakeService, LogEntry } from '../tracker/fake-service';
import type { Touch } from './idb';
import type { Life } from './time';

/** The service's origin (the configured one). */
export const SERVICE_ORIGIN = 'https://svc.example';
/** The access key of the configured service. */
export const ACCESS_KEY = 'k';
/** Another service the user tries with Test connection before saving it (its clock and its 429s are its own). */
export const OTHER_ORIGIN = 'https://other.example';

/** How the other service answers Test connection: its clock ahead of the true time, and a 429's Retry-After (s). */
export interface OtherService {
  clockAheadMs: number;
  retryAfterSeconds?: number;
}

/** How a 429's `Retry-After` is written. */
export type RetryAfterForm = 'seconds' | 'http-date' | 'ms-by-mistake';

/** The service's faults, each family with its own switch (absent: off). Rates are per request, in [0, 1]. */
export interface NetFaults {
  /** The i-th request gets the i-th of these (then none): classic transport faults. */
  burst?: Array<'ok' | '500' | 'reset' | 'malformed' | 'timeout' | '429'>;
  /** 429 with this Retry-After (seconds the service means), in this form. */
  retryAfter?: { rate: number; seconds: number; form: RetryAfterForm };
  /** The `Date` header is off by `offsetMs` on this share of answers. */
  lyingDate?: { rate: number; offsetMs: number };
  /** A receipt's `updatedAt` is `aheadMs` after the answer's `Date`. */
  updatedAhead?: { rate: number; aheadMs: number };
  /** An EXECUTING intent is answered COMMITTED (a stale replica). */
  backwards?: { rate: number };
  /** This share of intents carries integers above 2^53 (2^256 − 1, "no deadline") in its receipt, in every answer. */
  bigInt?: { rate: number };
  /** The answer (WaitIntentReceipt, GetIntentReceipt, GetIntent) is about another intent. */
  foreign?: { rate: number };
}

/** A request the world's network saw, beside the service's own log entry. */
export interface WireEntry {
  entry: LogEntry;
  /** What the world did to the answer. */
  fault?: string;
  /** The hold a 429 asked for, as the service meant it (ms). */
  holdMs?: number;
  /**
   * When the worker first read the 429's `Retry-After` (the service's clock, ms): when it learnt of the hold. Later than
   * `entry.end` when time passed while the worker worked (the slowDisk and slowCalls families).
   */
  readAt?: number;
}

const OPS: Record<string, LogEntry['op']> = {
  WaitIntentReceipt: 'wait',
  GetIntentReceipt: 'receipt',
  GetIntentHistory: 'history',
  GetIntent: 'intent',
};
const BIG = '115792089237316195423570985008687907853269984665640564039457584007913129639935';

/** A deterministic generator in [0, 1) from a seed (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const json = (status: number, body: unknown, headers: Record<string, string>, text?: string) =>
  new Response(text ?? JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** The world's network over `service`: `fetchFor(life, touch)` is one worker life's `platform.fetch`. */
export class WorldNetwork {
  readonly wire: WireEntry[] = [];
  /**
   * Every `Date` header of the configured service a live worker received: when (true time, ms), which life, and how
   * far the header was from the true time (ms; a truthful one is within the second before it, a lie minutes off).
   */
  readonly dates: Array<{ at: number; life: number; offsetMs: number }> = [];
  /** Requests to another origin (Test connection of an unsaved URL), with when. */
  readonly other: Array<{ at: number; method: string }> = [];
  /** How the other origin answers; undefined: nothing answers there. */
  otherService: OtherService | undefined;
  /**
   * What a family of the schedule does to an answer of the configured service (test/world/families.ts): changes
   * `result` in place. What it changes is the service's data, not a fault: no window of the oracle opens for it. A
   * string `"__BIG__"` anywhere in the answer is sent as 2^256 − 1, a bare integer.
   */
  patch: ((op: LogEntry['op'], intentId: string | undefined, result: unknown) => void) | undefined;
  /** Other origins that answer (test/world/chain-family.ts: the chains' RPC URLs), by origin. */
  readonly routes = new Map<string, (url: string, init: RequestInit) => Promise<Response>>();
  /** Which requests are the user's own look-ups (by their body; a family's, ./lookups.ts): logged in the `user` lane. */
  isUser: ((body: Record<string, unknown>) => boolean) | undefined;
  inFlight = 0;
  /** The most requests to the service in flight at once. */
  maxInFlight = 0;
  /** The most requests to the service in flight at once that are not the user's (a look-up, Test connection). */
  maxOthersInFlight = 0;
  #serviceInFlight = 0;
  #othersInFlight = 0;
  #n = 0;
  readonly #big = new Map<string, boolean>();

  /** Whether intent `id` carries integers above 2^53 (drawn once per intent: its data, not a passing fault). */
  #bigOf(id: string, rate: number): boolean {
    let b = this.#big.get(id);
    if (b === undefined) {
      b = this.random() < rate;
      this.#big.set(id, b);
    }
    return b;
  }
  #serviceCalls = 0;

  constructor(
    readonly service: FakeService,
    readonly faults: NetFaults,
    readonly random: () => number,
    /** The service's true time (ms). */
    readonly trueNow: () => number,
  ) {}

  readonly #lives = new Map<Life, AbortController>();
  /**
   * When the worker called `fetch` for each request the service logged (the service's clock, ms): before the request
   * reached the service when the call itself took time (slowCalls).
   */
  readonly issuedAt = new WeakMap<LogEntry, number>();

  /** A worker life died: its connections are closed (the service stops serving them). */
  cut(life: Life): void {
    this.#lives.get(life)?.abort();
    this.#lives.delete(life);
  }

  /** The `platform.fetch` of one worker life: a dead life's requests are cut and never settle. */
  fetchFor(life: Life, touch: (what: string) => Touch, kill: () => void): typeof fetch {
    const connections = new AbortController();
    this.#lives.set(life, connections);
    return async (input, init) => {
      const never = new Promise<Response>(() => {});
      if (life.dead) return never;
      const issuedAt = this.service.clock.now();
      const decision = touch(`fetch ${String(input)}`);
      if (decision === 'kill') {
        kill();
        return never;
      }
      // Requests to a routed origin (an RPC node) keep the worker busy but are not requests to the service.
      const service = !this.routes.has(new URL(String(input)).origin);
      const other = service && !this.#isUsers(String(input), init);
      this.inFlight++;
      if (service) this.#serviceInFlight++;
      if (other) this.#othersInFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.#serviceInFlight);
      this.maxOthersInFlight = Math.max(this.maxOthersInFlight, this.#othersInFlight);
      try {
        const own = init?.signal;
        const signal = own ? AbortSignal.any([own, connections.signal]) : connections.signal;
        const response = await this.#serve(String(input), { ...init, signal }, issuedAt);
        if (decision === 'kill-after' || life.dead) {
          kill();
          return never;
        }
        const date = Date.parse(response.headers.get('date') ?? '');
        if (new URL(String(input)).origin === SERVICE_ORIGIN && Number.isFinite(date))
          this.dates.push({ at: this.trueNow(), life: life.n, offsetMs: date - this.trueNow() });
        return response;
      } finally {
        this.inFlight--;
        if (service) this.#serviceInFlight--;
        if (other) this.#othersInFlight--;
      }
    };
  }

  /** Whether a request is the user's own: Test connection of another service, or a family's look-up ({@link isUser}). */
  #isUsers(url: string, init: RequestInit | undefined): boolean {
    if (new URL(url).origin === OTHER_ORIGIN) return true;
    try {
      return this.isUser?.(JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>) ?? false;
    } catch {
      return false;
    }
  }

  async #serve(url: string, init: RequestInit, issuedAt: number): Promise<Response> {
    const u = new URL(url);
    const route = this.routes.get(u.origin);
    if (route) return route(url, init);
    const method = u.pathname.replace('/rpc/Svc/', '');
    const op = OPS[method];
    const signal = init.signal ?? undefined;
    const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>;
    const intentId = typeof body.intentId === 'string' ? body.intentId : undefined;
    const i = this.#n++;
    const r = this.random;
    const dateOf = (lie = 0) => new Date(Math.floor(this.trueNow() / 1000) * 1000 + lie).toUTCString();
    if (u.origin !== SERVICE_ORIGIN || !op) {
      // Another origin (Test connection of an unsaved URL): its own clock, maybe its own 429; else nothing answers.
      if (u.origin === OTHER_ORIGIN && this.otherService) {
        this.other.push({ at: this.trueNow(), method });
        const { clockAheadMs, retryAfterSeconds } = this.otherService;
        const date = { date: dateOf(clockAheadMs) };
        if (retryAfterSeconds !== undefined)
          return json(429, { error: 'RateLimited', code: 1007, msg: 'slow down' }, { ...date, 'retry-after': String(retryAfterSeconds) });
        return json(400, { error: 'NotFound', code: 8000, msg: 'intent not found' }, date);
      }
      if (u.origin !== SERVICE_ORIGIN) throw new TypeError('fetch failed');
      return json(404, { error: 'WebrpcBadRoute', code: -4, msg: 'no such method' }, { date: dateOf() });
    }
    const lane: Lane = this.isUser?.(body)
      ? 'user'
      : op === 'wait' || op === 'receipt'
        ? 'tracker'
        : op === 'history' && body.byStatuses
          ? 'tracker'
          : 'background';
    const f = this.faults;
    const burst = f.burst?.[i] ?? 'ok';
    const rateLimited = burst === '429' || (f.retryAfter !== undefined && r() < f.retryAfter.rate);
    if (rateLimited) {
      const { seconds, form } = burst === '429' ? { seconds: 3, form: 'seconds' as const } : f.retryAfter!;
      const header =
        form === 'seconds' ? String(seconds) : form === 'ms-by-mistake' ? String(seconds * 1000) : dateOf(seconds * 1000 + 999);
      const entry: LogEntry = { op, lane, start: this.service.clock.now(), end: this.service.clock.now(), outcome: 'error' };
      if (intentId) entry.intentId = intentId;
      entry.error = 'RateLimited';
      entry.retryAfterMs = seconds * 1000;
      this.service.log.push(entry);
      this.issuedAt.set(entry, issuedAt);
      const wire: WireEntry = { entry, fault: `429 ${form} ${seconds}s`, holdMs: seconds * 1000 };
      this.wire.push(wire);
      const response = json(429, { error: 'RateLimited', code: 1007, msg: 'slow down' }, { date: dateOf(), 'retry-after': header });
      // When the worker reads the hold (lib/api/http.ts reads `Retry-After` and holds the budget in one step).
      const headers = response.headers;
      const get = headers.get.bind(headers);
      headers.get = (name: string) => {
        if (name.toLowerCase() === 'retry-after') wire.readAt ??= this.service.clock.now();
        return get(name);
      };
      return response;
    }
    // The fake service answers (its log entry is the last one pushed when the call starts).
    const client = this.service.client(lane);
    const before = this.service.log.length;
    // The service reads its fault list at its own call count: this request's fault goes at that index.
    this.service.faults = [];
    if (burst !== 'ok') this.service.faults[this.#serviceCalls] = burst;
    this.#serviceCalls++;
    const call = (): Promise<unknown> => {
      const options = { ...(signal ? { signal } : {}), lane };
      if (op === 'wait') return client.waitIntentReceipt(body as never, options);
      if (op === 'receipt') return client.getIntentReceipt(body as never, options);
      if (op === 'intent') return client.getIntent(body as never, options);
      return client.getIntentHistory(body as never, options);
    };
    let result: unknown;
    const issued = () => {
      const logged = this.service.log[before];
      if (logged) this.issuedAt.set(logged, issuedAt);
    };
    try {
      result = await call();
      issued();
    } catch (err) {
      issued();
      const entry = this.service.log[before];
      if (entry) this.wire.push({ entry, fault: burst === 'ok' ? undefined : burst } as WireEntry);
      if (err instanceof SvcAbortedError || signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
      if (err instanceof SvcNetworkError) throw new TypeError('fetch failed');
      if (err instanceof SvcBadBodyError) return new Response('{', { status: 200, headers: { date: dateOf() } });
      if (err instanceof SvcTimeoutError) return new Promise<Response>(() => {});
      if (err instanceof SvcServiceError)
        return json(err.httpStatus, { error: err.errorName, code: err.code, msg: err.msg }, { date: dateOf() });
      throw err;
    }
    const entry = this.service.log[before]!;
    const wire: WireEntry = { entry };
    this.wire.push(wire);
    // What the world does to an answer.
    const done: string[] = [];
    this.patch?.(op, intentId, result);
    const receipt = (result as { intentReceipt?: Record<string, unknown> }).intentReceipt;
    if (f.foreign && (op === 'wait' || op === 'receipt' || op === 'intent') && r() < f.foreign.rate) {
      const other = `0x${'e'.repeat(64)}`;
      if (receipt) receipt.intentId = other;
      const intent = (result as { intent?: Record<string, unknown> }).intent;
      if (intent) Object.assign(intent, { intentId: other, quote: { estimatedDuration: 86_400 } });
      entry.foreign = other;
      done.push('foreign');
    }
    if (receipt && f.backwards && receipt.status === 'EXECUTING' && r() < f.backwards.rate) {
      receipt.status = 'COMMITTED';
      entry.status = 'COMMITTED';
      done.push('backwards');
    }
    if (receipt && f.updatedAhead && r() < f.updatedAhead.rate) {
      receipt.updatedAt = new Date(this.trueNow() + f.updatedAhead.aheadMs).toISOString();
      done.push('updatedAhead');
    }
    let big = false;
    if (f.bigInt) {
      const entryOf = { userNonce: '__BIG__', deadline: '__BIG__', permitDeadline: '__BIG__' };
      const rate = f.bigInt.rate;
      const carries = (id: unknown) => typeof id === 'string' && this.#bigOf(id, rate);
      if (receipt && carries(receipt.intentId)) {
        receipt.depositTransaction = { depositIntentEntry: entryOf };
        big = true;
      }
      for (const row of (result as { intents?: Array<Record<string, unknown>> }).intents ?? []) {
        if (!row.receipt || !carries(row.intentId)) continue;
        (row.receipt as Record<string, unknown>).depositTransaction = { depositIntentEntry: entryOf };
        big = true;
      }
      if (big) done.push('bigInt');
    }
    const lie = f.lyingDate && r() < f.lyingDate.rate ? f.lyingDate.offsetMs : 0;
    if (lie) done.push(`date ${lie} ms`);
    if (done.length > 0) wire.fault = done.join(' ');
    let text = JSON.stringify(result);
    text = text.replaceAll('"__BIG__"', BIG);
    return json(200, undefined, { date: dateOf(lie) }, text);
  }
}
