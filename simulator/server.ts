/**
 * The Svc service simulator: a Fastify HTTP server speaking the deployed wire form (`deployed-wire-notes.md`) of
 * `POST /rpc/Svc/<Operation>` — access-key check, webrpc error bodies and codes, `Webrpc` header, CORS — with
 * intents that move through scripted lifecycles in real time, and a control API for tests and the demo.
 *
 * Operations: GetIntentReceipt, WaitIntentReceipt, GetIntentHistory, SearchIntents, QuoteIntent, CommitIntent,
 * ExecuteIntent, GetIntent, GetTokenPrices, GetExactOutputRoutes, over a seeded data set (`dataset.ts`) plus the
 * intents created through the control API.
 *
 * Control API (no access key):
 * - `POST /control/intents {"scenario", "stepMs"?: number, "ownerAddress"?: string, "inHistory"?: boolean,
 *   "createdAgoMs"?: number, "estimatedDuration"?: number | null}` → `{"intentId"}`; scenarios: success, failure,
 *   refund, slow (four times the pace its quote estimated), stuck (stays EXECUTING), not-found-until-later (NotFound
 *   for two steps). `inHistory: false`: GetIntentHistory never lists it (an intent of another project);
 *   `createdAgoMs`: created that long ago, its script running from then; `estimatedDuration`: the quote's estimate
 *   in seconds (null: none). With local chains attached (`startSimulator({ chains })`, ./chains.ts), the chain
 *   scenarios too: chain-success, chain-revert, chain-smaller, chain-lagging, chain-reorg, chain-missing
 * - `GET /control/chains` → the local chains' JSON-RPC URLs by chainId (`{}` without chains)
 * - `POST /control/busy {"perHour", "backfillMs"?, "minLifeMs"?, "maxLifeMs"?, "seed"?}` → `{"perHour", "backfilled"}`:
 *   starts (or restarts) the busy-project stream of other owners' intents (`busy.ts`); `perHour: 0` stops it
 * - `POST /control/history {"scriptedInHistory": boolean}`: whether GetIntentHistory lists the intents made by
 *   `POST /control/intents` without an `inHistory` of their own (false: the not-in-history mode)
 * - `GET /control/requests` → the RPC log: `{operation, intentId, start, end, status, outcome, trace}` (times in ms
 *   since the epoch; outcome `answered` or `closed` when the client closed the connection before the answer; trace:
 *   the turns of a WaitIntentReceipt, what it held for and what it answered)
 * - `POST /control/clock {"advanceMs": number}` → `{"now"}`: moves the simulated clock forward
 * - `POST /control/wait-timeout {"ms": number}` → sets the WaitIntentReceipt wait time-out (0: answer at once)
 * - `POST /control/faults {"operation"?: string, "fault": Fault, "count"?: number}` → queues `count` (default 1)
 *   faults for the next calls of `operation` (any operation when omitted); `DELETE /control/faults` clears them.
 */
import { EventEmitter } from 'node:events';
import cors from '@fastify/cors';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { type BusyOptions, BusyStream } from './busy';
import { CHAIN_ACCOUNTS, CHAIN_SCENARIOS, type ChainScenario, type ChainWorld, chainScript } from './chains';
import { DATASET, generateDataset } from './dataset';
import {
  addressOf,
  hexOf,
  intentAt,
  SCENARIOS,
  SCRIPTS,
  type Scenario,
  type SimIntent,
  scriptLength,
  snapshotAt,
  stepStart,
  waitTurn,
} from './lifecycle';
import { IntentIndex, intentHistory, QueryError, searchIntents } from './queries';
import { commitIntent, exactOutputRoutes, executeIntent, quoteIntent, ServiceError, tokenPrices } from './quotes';
import { tokenBySymbol } from './tokens';

/** Options of {@link startSimulator}. */
export interface SimulatorOptions {
  /** Port to listen on; 0 picks a free one (default 0). */
  port?: number;
  /** Host to bind (default 127.0.0.1). */
  host?: string;
  /** The accepted access key (default: a fresh random one). */
  accessKey?: string;
  /** A key that exists but is restricted to another origin: answered with 1103 InvalidOrigin. */
  restrictedAccessKey?: string;
  /** WaitIntentReceipt wait time-out in ms (default 20 000). */
  waitTimeoutMs?: number;
  /** Default time between lifecycle steps in ms (default 1 500). */
  stepMs?: number;
  /** Seed of ids and addresses (default "svc-sim"). */
  seed?: string;
  /** Load the seeded data set (default true). */
  dataset?: boolean;
  /** Start the busy-project stream of other owners' intents (`busy.ts`; default: off). */
  busy?: BusyOptions;
  /**
   * Whether GetIntentHistory lists scripted intents (made by `createIntent`) that were not given `inHistory`
   * (default true; false: the not-in-history mode, as for intents of another project).
   */
  scriptedInHistory?: boolean;
  /**
   * Local chains (./chains.ts, `ChainWorld.start()`): the chain scenarios become available and their legs are real
   * transactions. The simulator drives the world on its clock and stops it on `close`.
   */
  chains?: ChainWorld;
}

/** Extra settings of one scripted intent (see {@link Simulator.createIntent}). */
export interface CreateOptions {
  /** false: GetIntentHistory never lists it; true: always; unset: as `scriptedInHistory` says. */
  inHistory?: boolean;
  /** Created this many ms before now (its script runs from then); default 0. */
  createdAgoMs?: number;
  /**
   * The quote's estimate in seconds; null: the quote has none. Default: the script's execution time at the normal
   * pace (so a `slow` intent runs four times longer than its quote said).
   */
  estimatedDuration?: number | null;
}

/** One RPC call as the simulator saw it. Times are ms since the epoch (real time). */
export interface RequestLogEntry {
  operation: string;
  intentId?: string;
  start: number;
  end?: number;
  status?: number;
  /** `answered`: the response was written; `closed`: the client went away before it. */
  outcome?: 'answered' | 'closed';
  /** WaitIntentReceipt only: one line per turn of the wait (ms since start, step, what it decided), at most 20. */
  trace?: string[];
}

/** Most requests of a log that overlapped in time (a request with no end yet counts as still running). */
export function peakConcurrency(log: readonly RequestLogEntry[]): number {
  const events = log.flatMap((e) => [
    { t: e.start, d: 1 },
    { t: e.end ?? Number.POSITIVE_INFINITY, d: -1 },
  ]);
  events.sort((a, b) => a.t - b.t || a.d - b.d);
  let now = 0;
  let peak = 0;
  for (const e of events) {
    now += e.d;
    peak = Math.max(peak, now);
  }
  return peak;
}

/**
 * A fault injected into the next call(s):
 * - `{"kind": "latency", "ms"}`: answer normally after `ms`;
 * - `{"kind": "http500"}`: 500 WebrpcInternalError body;
 * - `{"kind": "html502"}`: 502 with an HTML page (a proxy answering);
 * - `{"kind": "rate-limit", "retryAfterSeconds"}`: 429 RateLimited (1007) with `Retry-After`;
 * - `{"kind": "malformed"}`: 200 with a truncated JSON body;
 * - `{"kind": "empty"}`: 200 with an empty body;
 * - `{"kind": "reset"}`: the connection is destroyed without an answer.
 */
export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'http500' }
  | { kind: 'html502' }
  | { kind: 'rate-limit'; retryAfterSeconds: number }
  | { kind: 'malformed' }
  | { kind: 'empty' }
  | { kind: 'reset' };

/** A running simulator. */
export interface Simulator {
  url: string;
  accessKey: string;
  restrictedAccessKey: string;
  /**
   * Creates an intent running `scenario` from its creation (now, or `more.createdAgoMs` ago); returns its intentId.
   * Ids of created intents follow their creation time, as the service's do, so history pages them in that order.
   */
  createIntent(scenario: Scenario | ChainScenario, stepMs?: number, ownerAddress?: string, more?: CreateOptions): string;
  /** The local chains' JSON-RPC URLs by chainId (empty without `chains`). */
  rpcUrls(): Record<number, string>;
  /**
   * Starts (or restarts) the busy-project stream; undefined or `perHour: 0` stops it. Returns how many intents it
   * backfilled. Throws an Error naming a setting that is not a number ≥ 0 (or lifetimes out of order).
   */
  setBusy(options: BusyOptions | undefined): number;
  /** Sets whether GetIntentHistory lists scripted intents without an `inHistory` of their own. */
  setScriptedInHistory(listed: boolean): void;
  /** Every intent the simulator knows (data set and created), as simulated. */
  intents(): SimIntent[];
  /** The simulated clock (ms since the epoch). */
  now(): number;
  requests(): RequestLogEntry[];
  setWaitTimeout(ms: number): void;
  advanceClock(ms: number): number;
  /** Queues `count` faults for the next calls of `operation` (any operation when undefined). */
  injectFault(fault: Fault, operation?: string, count?: number): void;
  clearFaults(): void;
  close(): Promise<void>;
}

const isChainScenario = (s: string): s is ChainScenario => (CHAIN_SCENARIOS as readonly string[]).includes(s);

/** Error names, codes and HTTP statuses used (wire notes, "Errors"). */
const ERRORS = {
  WebrpcBadRoute: { code: -2, status: 404 },
  WebrpcBadMethod: { code: -3, status: 405 },
  WebrpcBadRequest: { code: -4, status: 400 },
  AccessKeyNotFound: { code: 1101, status: 401 },
  InvalidOrigin: { code: 1103, status: 403 },
  WebrpcInternalError: { code: -7, status: 500 },
  RateLimited: { code: 1007, status: 429 },
  InvalidArgument: { code: 2000, status: 400 },
  NotFound: { code: 8000, status: 400 },
  IntentStatus: { code: 2004, status: 422 },
  QuoteExpired: { code: 7001, status: 400 },
  UnsupportedNetwork: { code: 8008, status: 422 },
} as const;

class RpcError extends Error {
  constructor(
    readonly errorName: keyof typeof ERRORS,
    msg: string,
  ) {
    super(msg);
  }
}

/** The JSON object a control call sent (an empty body is `{}`), or undefined when it is not a JSON object. */
function controlBody(request: FastifyRequest): Record<string, unknown> | undefined {
  const text = typeof request.body === 'string' ? request.body : '';
  try {
    const body: unknown = text ? JSON.parse(text) : {};
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const NOT_JSON = { error: 'the body must be a JSON object' };

const isNonNegative = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

const WEBRPC_HEADER = 'webrpc@v0.22.1;gen-golang@v0.17.0;svc-api@v0.4.0';

/** Starts the simulator; resolves once it listens. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const seed = options.seed ?? 'svc-sim';
  const accessKey = options.accessKey ?? `sim_${hexOf(seed, 'key', Date.now(), Math.random()).slice(0, 32)}`;
  const restrictedAccessKey = options.restrictedAccessKey ?? `sim_restricted_${hexOf(seed, 'restricted').slice(0, 24)}`;
  let waitTimeoutMs = options.waitTimeoutMs ?? 20_000;
  const defaultStepMs = options.stepMs ?? 1500;
  let clockOffset = 0;
  const now = () => Date.now() + clockOffset;
  const intents = new Map<string, SimIntent>();
  const index = new IntentIndex();
  /** Creation times in use: they are unique, so that history cursors on createdAt never skip or repeat. */
  const usedTimes = new Set<number>();
  const uniqueTime = (t: number) => {
    let u = Math.floor(t);
    while (usedTimes.has(u)) u++;
    usedTimes.add(u);
    return u;
  };
  const addIntent = (i: SimIntent) => {
    intents.set(i.intentId, i);
    index.add(i);
    usedTimes.add(i.createdAt);
  };
  if (options.dataset !== false) for (const i of generateDataset()) addIntent(i);
  const log: RequestLogEntry[] = [];
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  let lastCreatedAt = DATASET.endsAt;
  const freshTime = () => (lastCreatedAt = uniqueTime(Math.max(now(), lastCreatedAt + 1)));
  let scriptedInHistory = options.scriptedInHistory ?? true;
  const listed = (i: SimIntent) => i.inHistory ?? (scriptedInHistory || !i.scripted);
  const faults: Array<{ operation: string | undefined; fault: Fault }> = [];
  const takeFault = (operation: string): Fault | undefined => {
    const i = faults.findIndex((f) => f.operation === undefined || f.operation === operation);
    return i < 0 ? undefined : faults.splice(i, 1)[0]!.fault;
  };
  const demoOwner = addressOf(seed, 'demo-owner');

  const createIntent = (
    scenario: Scenario | ChainScenario,
    stepMs = defaultStepMs,
    ownerAddress = demoOwner,
    more: CreateOptions = {},
  ): string => {
    if (isChainScenario(scenario)) return createChainIntent(scenario, stepMs, more);
    const createdAt = more.createdAgoMs ? uniqueTime(now() - more.createdAgoMs) : freshTime();
    // The id follows the creation time (data set ids are far below), so id order is creation order.
    const numericId = createdAt;
    const intentId = `0x${hexOf(seed, 'intent', numericId, Date.now())}`;
    const failing = scenario === 'failure' || scenario === 'refund';
    const step = scenario === 'slow' ? stepMs * 4 : stepMs;
    const script = scenario === 'failure' || scenario === 'refund' || scenario === 'stuck' ? SCRIPTS[scenario] : SCRIPTS.success;
    addIntent({
      intentId,
      numericId,
      scripted: true,
      ...(more.inHistory !== undefined ? { inHistory: more.inHistory } : {}),
      projectId: 1,
      ownerAddress: ownerAddress.toLowerCase(),
      origin: failing ? tokenBySymbol(42161, 'ETH') : tokenBySymbol(42161, 'USDC'),
      destination: failing ? tokenBySymbol(10, 'WETH') : tokenBySymbol(8453, 'USDC'),
      originAmount: failing ? '1500000000000000000' : '250000000',
      destinationAmount: failing ? '1496250000000000000' : '249100000',
      createdAt,
      startedAt: createdAt,
      stepMs: step,
      script,
      failureReason: 'execution reverted: insufficient output amount (slippage 0.50% exceeded)',
      // From execution start (the end of the COMMITTED step) to the final step, at the quoted (normal) pace.
      ...(more.estimatedDuration === null
        ? {}
        : { estimatedDuration: more.estimatedDuration ?? Math.round(((scriptLength(script) - stepStart(script, 1)) * stepMs) / 1000) }),
      ...(scenario === 'not-found-until-later' ? { visibleAt: createdAt + 2 * step } : {}),
    });
    return intentId;
  };

  /** A chain intent: 250 USDC on Arbitrum One to 249.10 USDC on Base, its legs real transactions (./chains.ts). */
  const createChainIntent = (scenario: ChainScenario, stepMs: number, more: CreateOptions): string => {
    const world = options.chains;
    if (!world) throw new Error(`scenario ${scenario} needs the local chains (startSimulator({ chains }))`);
    const createdAt = freshTime();
    const intentId = `0x${hexOf(seed, 'chain-intent', createdAt, Date.now())}`;
    const script = chainScript(scenario) ?? SCRIPTS.success;
    const tokens = world.tokens();
    const intent: SimIntent = {
      intentId,
      numericId: createdAt,
      scripted: true,
      ...(more.inHistory !== undefined ? { inHistory: more.inHistory } : {}),
      projectId: 1,
      ownerAddress: CHAIN_ACCOUNTS.owner.toLowerCase(),
      intentAddress: CHAIN_ACCOUNTS.intentAddress.toLowerCase(),
      origin: tokens.origin,
      destination: tokens.destination,
      originAmount: '250000000',
      destinationAmount: '249100000',
      createdAt,
      startedAt: createdAt,
      stepMs,
      script,
      failureReason: 'execution reverted',
      estimatedDuration: Math.round(((scriptLength(script) - stepStart(script, 1)) * stepMs) / 1000),
    };
    intent.onChain = world.play(intent, scenario);
    addIntent(intent);
    return intentId;
  };
  options.chains?.run(now);

  let busy: { stream: BusyStream; nextAt: number; timer: NodeJS.Timeout } | undefined;
  const addBusy = (stream: BusyStream, at: number) => {
    const createdAt = uniqueTime(at);
    addIntent(stream.intent(createdAt, createdAt));
  };
  const setBusy = (settings: BusyOptions | undefined): number => {
    if (busy) clearInterval(busy.timer);
    busy = undefined;
    if (!settings || settings.perHour === 0) return 0;
    const stream = new BusyStream(settings, seed);
    const t = now();
    const times = stream.backfill(t);
    for (const at of times) addBusy(stream, at);
    const state = { stream, nextAt: t + stream.gap(), timer: setInterval(() => arrive(state), 200) };
    state.timer.unref();
    busy = state;
    return times.length;
  };
  /** Creates the intents whose arrival time has come. A clock moved far ahead skips the arrivals it jumped over. */
  const arrive = (state: NonNullable<typeof busy>) => {
    const t = now();
    if (state.nextAt < t - 5_000) state.nextAt = t;
    for (; state.nextAt <= t; state.nextAt += state.stream.gap()) addBusy(state.stream, state.nextAt);
  };
  if (options.busy) setBusy(options.busy);

  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024, forceCloseConnections: true });
  await app.register(cors, {
    origin: true,
    methods: ['POST'],
    allowedHeaders: ['Content-Type', 'X-Access-Key'],
    // A page's (and a Chromium extension's) fetch sees only the CORS-safelisted headers unless they are exposed: the
    // worker's service clock reads `Date`, its back-off reads `Retry-After`. A real service must expose them too.
    exposedHeaders: ['Webrpc', 'Date', 'Retry-After'],
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const sendError = (reply: FastifyReply, err: RpcError) => {
    const e = ERRORS[err.errorName];
    return reply
      .code(e.status)
      .header('Webrpc', WEBRPC_HEADER)
      .type('application/json')
      .send(JSON.stringify({ error: err.errorName, code: e.code, msg: err.message, status: e.status }));
  };

  const parseBody = (request: FastifyRequest): Record<string, unknown> => {
    const type = String(request.headers['content-type'] ?? '');
    if (!type.toLowerCase().startsWith('application/json')) {
      throw new RpcError('WebrpcBadRequest', `unexpected Content-Type: ${type || '(none)'}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(String(request.body ?? ''));
    } catch {
      throw new RpcError('WebrpcBadRequest', 'failed to unmarshal request');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new RpcError('WebrpcBadRequest', 'request body must be a JSON object');
    }
    return body as Record<string, unknown>;
  };

  const checkKey = (request: FastifyRequest) => {
    const key = request.headers['x-access-key'];
    if (key === restrictedAccessKey) throw new RpcError('InvalidOrigin', 'access key is not allowed from this origin');
    if (key !== accessKey) throw new RpcError('AccessKeyNotFound', 'access key not found');
  };

  const intentOf = (body: Record<string, unknown>): SimIntent => {
    const id = body.intentId;
    if (typeof id !== 'string' || id === '') throw new RpcError('InvalidArgument', 'intentId is required');
    const intent = intents.get(id.toLowerCase());
    if (!intent || (intent.visibleAt !== undefined && intent.visibleAt > now())) throw new RpcError('NotFound', 'intent not found');
    return intent;
  };

  /** The log entry of each request being answered (for the wait's trace). */
  const entryOf = new WeakMap<FastifyReply, RequestLogEntry>();

  /** True once the client went away (the response closed before it was written). */
  const gone = (reply: FastifyReply) => reply.raw.destroyed || (reply.raw.closed && !reply.raw.writableFinished);

  /** Waits until `ms` elapsed, the simulated clock moved, or the client closed the connection. */
  const pause = (ms: number, reply: FastifyReply) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        changes.off('change', done);
        reply.raw.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(1, ms));
      changes.on('change', done);
      reply.raw.on('close', done);
    });

  const operations: Record<string, (body: Record<string, unknown>, reply: FastifyReply, raw: string) => Promise<unknown>> = {
    async GetIntentHistory(body) {
      return intentHistory(index, now(), body, listed);
    },
    async SearchIntents(body) {
      return searchIntents([...intents.values()], now(), body);
    },
    async GetIntent(body) {
      return { intent: intentAt(intentOf(body), now()) };
    },
    async QuoteIntent(body) {
      const createdAt = freshTime();
      return quoteIntent(body, createdAt, () => createdAt, addIntent);
    },
    async CommitIntent(_body, _reply, raw) {
      return commitIntent(raw, intents, now());
    },
    async ExecuteIntent(body) {
      return executeIntent(body, intents, now());
    },
    async GetTokenPrices(body) {
      return tokenPrices(body, now());
    },
    async GetExactOutputRoutes(body) {
      return exactOutputRoutes(body);
    },
    async GetIntentReceipt(body) {
      return { intentReceipt: snapshotAt(intentOf(body), now()).receipt };
    },
    async WaitIntentReceipt(body, reply) {
      const intent = intentOf(body);
      const last = Array.isArray(body.lastReceiptStates) ? body.lastReceiptStates.map(String) : [];
      const started = Date.now();
      const deadline = started + waitTimeoutMs;
      const entry = entryOf.get(reply);
      const trace = (line: string) => {
        if (!entry) return;
        entry.trace ??= [];
        if (entry.trace.length < 20) entry.trace.push(`${Date.now() - started}ms ${line}`);
      };
      let lastHeld = '';
      for (;;) {
        const t = now();
        const turn = waitTurn(intent, last, t);
        if ('answer' in turn || Date.now() >= deadline || gone(reply)) {
          const snap = 'answer' in turn ? turn.answer : turn.hold;
          trace(`answer ${snap.status} [${snap.states}] done=${snap.done} gone=${gone(reply)}`);
          return { intentReceipt: snap.receipt, receiptStates: snap.states, done: snap.done };
        }
        const ms = Math.min(turn.until === undefined ? Number.POSITIVE_INFINITY : turn.until - t, deadline - Date.now());
        // One line per state held (a step waiting for its chain looks again every 50 ms; the trace keeps 20 lines).
        const held = `${turn.hold.status} [${turn.hold.states}]`;
        if (held !== lastHeld) trace(`hold ${held} ${Math.round(ms)}ms`);
        lastHeld = held;
        await pause(ms, reply);
      }
    },
  };

  app.all('/rpc/Svc/:operation', async (request, reply) => {
    const operation = (request.params as { operation: string }).operation;
    const entry: RequestLogEntry = { operation, start: Date.now() };
    log.push(entry);
    entryOf.set(reply, entry);
    reply.raw.on('close', () => {
      entry.end = Date.now();
      entry.status = reply.statusCode;
      entry.outcome = reply.raw.writableFinished ? 'answered' : 'closed';
    });
    try {
      if (request.method !== 'POST') throw new RpcError('WebrpcBadMethod', `unsupported method ${request.method}`);
      const handler = Object.hasOwn(operations, operation) ? operations[operation] : undefined;
      if (!handler) throw new RpcError('WebrpcBadRoute', `no such operation: ${operation}`);
      const body = parseBody(request);
      if (typeof body.intentId === 'string') entry.intentId = body.intentId;
      checkKey(request);
      const fault = takeFault(operation);
      if (fault) {
        switch (fault.kind) {
          case 'latency':
            await pause(fault.ms, reply);
            if (gone(reply)) return reply;
            break;
          case 'http500':
            throw new RpcError('WebrpcInternalError', 'internal error');
          case 'html502':
            return reply.code(502).type('text/html').send('<html><body><h1>502 Bad Gateway</h1></body></html>');
          case 'rate-limit':
            reply.header('Retry-After', String(fault.retryAfterSeconds));
            throw new RpcError('RateLimited', 'rate limit exceeded');
          case 'malformed':
            return reply.code(200).header('Webrpc', WEBRPC_HEADER).type('application/json').send('{"intentReceipt": {"intentId": "0x');
          case 'empty':
            return reply.code(200).header('Webrpc', WEBRPC_HEADER).type('application/json').send('');
          case 'reset':
            request.raw.socket.destroy();
            return reply;
        }
      }
      const result = await handler(body, reply, String(request.body));
      if (gone(reply)) return reply;
      return reply.code(200).header('Webrpc', WEBRPC_HEADER).type('application/json').send(JSON.stringify(result));
    } catch (err) {
      if (err instanceof RpcError) return sendError(reply, err);
      if (err instanceof QueryError) return sendError(reply, new RpcError('InvalidArgument', err.message));
      if (err instanceof ServiceError) return sendError(reply, new RpcError(err.errorName, err.message));
      throw err;
    }
  });

  app.post('/control/intents', async (request, reply) => {
    const body = controlBody(request) as
      | {
          scenario?: string;
          stepMs?: number;
          ownerAddress?: string;
          inHistory?: unknown;
          createdAgoMs?: unknown;
          estimatedDuration?: unknown;
        }
      | undefined;
    if (!body) return reply.code(400).send(NOT_JSON);
    const scenario = (body.scenario ?? 'success') as Scenario | ChainScenario;
    const known: readonly string[] = options.chains ? [...SCENARIOS, ...CHAIN_SCENARIOS] : SCENARIOS;
    if (!known.includes(scenario)) return reply.code(400).send({ error: `unknown scenario ${scenario}; one of ${known.join(', ')}` });
    if (body.inHistory !== undefined && typeof body.inHistory !== 'boolean')
      return reply.code(400).send({ error: 'inHistory must be true or false' });
    if (body.createdAgoMs !== undefined && !isNonNegative(body.createdAgoMs))
      return reply.code(400).send({ error: 'createdAgoMs must be a number ≥ 0' });
    if (body.estimatedDuration !== undefined && body.estimatedDuration !== null && !isNonNegative(body.estimatedDuration))
      return reply.code(400).send({ error: 'estimatedDuration must be a number ≥ 0 (seconds) or null' });
    const more: CreateOptions = {
      ...(body.estimatedDuration !== undefined ? { estimatedDuration: body.estimatedDuration as number | null } : {}),
      ...(body.inHistory !== undefined ? { inHistory: body.inHistory } : {}),
      ...(body.createdAgoMs !== undefined ? { createdAgoMs: body.createdAgoMs } : {}),
    };
    return { intentId: createIntent(scenario, body.stepMs, body.ownerAddress, more) };
  });
  app.post('/control/busy', async (request, reply) => {
    const body = controlBody(request) as BusyOptions | undefined;
    if (!body) return reply.code(400).send(NOT_JSON);
    try {
      const backfilled = setBusy(body);
      return { perHour: busy?.stream.settings.perHour ?? 0, backfilled };
    } catch (err) {
      return reply.code(400).send({ error: (err as Error).message });
    }
  });
  app.post('/control/history', async (request, reply) => {
    const body = controlBody(request) as { scriptedInHistory?: unknown } | undefined;
    if (!body) return reply.code(400).send(NOT_JSON);
    if (typeof body.scriptedInHistory !== 'boolean') return reply.code(400).send({ error: 'scriptedInHistory must be true or false' });
    scriptedInHistory = body.scriptedInHistory;
    return { scriptedInHistory };
  });
  app.get('/control/requests', async () => log);
  app.get('/control/chains', async () => options.chains?.rpcUrls() ?? {});
  app.post('/control/clock', async (request) => {
    const { advanceMs } = JSON.parse(String(request.body || '{}')) as { advanceMs?: number };
    return { now: advance(Number(advanceMs ?? 0)) };
  });
  app.post('/control/wait-timeout', async (request, reply) => {
    const body = controlBody(request) as { ms?: unknown } | undefined;
    if (!body) return reply.code(400).send(NOT_JSON);
    const { ms } = body;
    if (!isNonNegative(ms)) return reply.code(400).send({ error: 'ms must be a number ≥ 0' });
    waitTimeoutMs = ms;
    return { waitTimeoutMs };
  });
  app.post('/control/faults', async (request) => {
    const body = JSON.parse(String(request.body || '{}')) as { operation?: string; fault: Fault; count?: number };
    injectFault(body.fault, body.operation, body.count);
    return { queued: faults.length };
  });
  app.delete('/control/faults', async () => {
    faults.length = 0;
    return { queued: 0 };
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new RpcError('WebrpcBadRoute', `no route for ${request.method} ${request.url}`)),
  );

  const injectFault = (fault: Fault, operation?: string, count = 1) => {
    for (let i = 0; i < count; i++) faults.push({ operation, fault });
  };

  const advance = (ms: number) => {
    clockOffset += ms;
    changes.emit('change');
    return now();
  };

  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    accessKey,
    restrictedAccessKey,
    createIntent,
    intents: () => [...intents.values()],
    rpcUrls: () => options.chains?.rpcUrls() ?? {},
    now,
    requests: () => log.map((e) => ({ ...e, ...(e.trace ? { trace: [...e.trace] } : {}) })),
    setWaitTimeout: (ms) => {
      waitTimeoutMs = ms;
    },
    advanceClock: advance,
    injectFault,
    clearFaults: () => {
      faults.length = 0;
    },
    setBusy,
    setScriptedInHistory: (value) => {
      scriptedInHistory = value;
    },
    close: async () => {
      setBusy(undefined);
      changes.emit('change');
      await app.close();
      await options.chains?.close();
    },
  };
}
