/**
 * A fake Svc service on virtual time for the tracker's tests and campaign. It implements every method the engine
 * uses — WaitIntentReceipt (with a server wait from 0 s to minutes and the client's own time-out), GetIntentReceipt
 * and GetIntentHistory — over intents whose status follows a timeline, and keeps a log of every request for the
 * oracles. Its history can be adversarial: it may omit tracked intents, list thousands of other owners' and
 * projects' finished intents, ignore the owner filter, repeat a cursor, answer pages out of order and add stale rows.
 */

import type { Lane, RequestBudget } from '@/lib/api/budget';
import { SvcAbortedError, SvcBadBodyError, SvcNetworkError, SvcServiceError, SvcTimeoutError } from '@/lib/api/errors';
import type { CallOptions } from '@/lib/api/http';
import type { HistoryLiteRequest, HistoryLiteResponse } from '@/lib/api/schemas/history';
import type { GetIntentResponse } from '@/lib/api/schemas/intent';
import type { IntentReceipt, WaitIntentReceiptRequest, WaitIntentReceiptResponse } from '@/lib/api/schemas/receipt';
import type { Clock } from '@/lib/time/clock';
import type { ReceiptTransport } from '@/lib/tracker/types';

/** One step of an intent's life: from `at` (ms) on, it has this status and these [deposit, origin, destination] states. */
export interface Step {
  at: number;
  status: string;
  states: string[];
}

/** An intent the fake service knows. */
export interface FakeIntent {
  intentId: string;
  ownerAddress: string;
  /** Creation time (ms). */
  createdAt: number;
  /** Unknown to the service (NotFound) before this time (ms); known from creation when absent. */
  visibleAt?: number;
  /** Steps in time order; the first is in force from `createdAt`. */
  steps: Step[];
  /** False: GetIntentHistory never lists it (another project's intent, or too deep in a busy history). */
  inHistory: boolean;
}

/** How GetIntentHistory misbehaves. */
export interface HistoryMode {
  /** Other finished intents it lists (other owners and projects), created over the last `othersSpanMs`. */
  others: number;
  othersSpanMs: number;
  /** Lists other owners' rows even when asked for one owner. */
  ignoreOwner: boolean;
  /** Answers every page with the same `nextPage.after`. */
  repeatCursor: boolean;
  /** Shuffles the rows of a page. */
  outOfOrder: boolean;
  /** Adds a row of a tracked intent with an older, non-final status. */
  staleRows: boolean;
}

/** A fault the next call gets. */
export type Fault = 'ok' | '500' | 'reset' | 'malformed' | 'timeout' | '429' | '401';

/** One request as the service saw it. `outcome`: answered, failed (an error answer) or abandoned by the client. */
export interface LogEntry {
  /** WaitIntentReceipt, GetIntentReceipt, GetIntentHistory (the tracker's lite form or the full one), GetIntent. */
  op: 'wait' | 'receipt' | 'history' | 'intent';
  intentId?: string;
  /** Who in the worker sent it (its place in the worker's request budget), when the caller said so. */
  lane?: Lane;
  start: number;
  end?: number;
  outcome?: 'answer' | 'error' | 'abandoned';
  /** Status answered (wait/receipt), or the final rows given (history). */
  status?: string;
  finalRows?: Array<{ intentId: string; status: string }>;
  error?: string;
  retryAfterMs?: number;
  /** The answer carried this other intent's receipt (a misrouted answer); `status` is that receipt's. */
  foreign?: string;
}

const RETRY_AFTER_S = 3;

const OPERATIONS: Record<LogEntry['op'], string> = {
  wait: 'WaitIntentReceipt',
  receipt: 'GetIntentReceipt',
  history: 'GetIntentHistory',
  intent: 'GetIntent',
};

/** Everything the worker asks the fake service (the tracker's transport, the look-ups, the ETA baselines, watched addresses). */
export type FakeClient = Required<ReceiptTransport> & {
  getIntentHistory(request: HistoryLiteRequest, options?: CallOptions): Promise<HistoryLiteResponse>;
  getIntent(request: { intentId: string }, options?: CallOptions): Promise<GetIntentResponse>;
};

/** The fake service. `transport()` is what the tracker gets. */
export class FakeService {
  readonly intents = new Map<string, FakeIntent>();
  readonly log: LogEntry[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** The most calls in flight at once that are not the user's (lane `user`: the place kept for them, lib/api/budget-limits.ts). */
  maxOthersInFlight = 0;
  #othersInFlight = 0;
  /** Faults for the calls in order: the i-th call gets the i-th fault; later calls succeed. */
  faults: Fault[] = [];
  /** Statuses in which WaitIntentReceipt says `done: true` although they are not final (a service that ends early). */
  doneWhile: string[] = [];
  /**
   * A misrouted answer (a caching proxy): returns the intentId whose receipt answers this request instead, or
   * undefined for the right one. `n` counts the requests of that op for that intent (0-based).
   */
  answerAbout?: (op: 'wait' | 'receipt', intentId: string, n: number) => string | undefined;
  /** Told the service's own time (ms) at every answer, to the second: the HTTP `Date` header. */
  onServerTime?: (serverMs: number) => void;
  #asked = new Map<string, number>();
  #calls = 0;
  #others: Array<{ intentId: string; ownerAddress: string; createdAt: number; status: string }> = [];

  constructor(
    readonly clock: Clock,
    /** The server's wait time-out of WaitIntentReceipt (ms). */
    public waitMs: number,
    /** History mode; undefined = the transport has no GetIntentHistory. */
    readonly history: HistoryMode | undefined,
    readonly latencyMs = 10,
  ) {}

  add(intent: FakeIntent): void {
    this.intents.set(intent.intentId, intent);
  }

  /** Fills the other intents history lists (before `now`), deterministic from `seed`. */
  seedOthers(seed: number, owners: readonly string[]): void {
    if (!this.history) return;
    let x = seed || 1;
    const rand = () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x / 2147483648;
    };
    const now = this.clock.now();
    const finals = ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED'];
    this.#others = Array.from({ length: this.history.others }, (_, i) => ({
      intentId: `0xother${String(i).padStart(58, '0')}`,
      ownerAddress: rand() < 0.2 && owners.length > 0 ? owners[Math.floor(rand() * owners.length)]! : `0x${String(i).padStart(40, '9')}`,
      createdAt: now - Math.floor(rand() * this.history!.othersSpanMs) - i,
      status: finals[Math.floor(rand() * finals.length)]!,
    })).sort((a, b) => b.createdAt - a.createdAt);
  }

  /** The step of an intent at time `at`. */
  stepAt(intentId: string, at: number): Step {
    const intent = this.intents.get(intentId)!;
    let current = intent.steps[0]!;
    for (const s of intent.steps) if (s.at <= at) current = s;
    return current;
  }

  /** The receipt the service gives at `at`. */
  receiptAt(intentId: string, at: number): IntentReceipt {
    const intent = this.intents.get(intentId)!;
    const step = this.stepAt(intentId, at);
    return {
      intentId,
      status: step.status,
      ownerAddress: intent.ownerAddress,
      createdAt: new Date(intent.createdAt).toISOString(),
      updatedAt: new Date(step.at).toISOString(),
      originChainId: 42161,
      destinationChainId: 8453,
    };
  }

  /** The receipt a request about `intentId` gets at `at`: another intent's when {@link answerAbout} says so. */
  #answerReceipt(op: 'wait' | 'receipt', intentId: string, at: number): IntentReceipt {
    const key = `${op} ${intentId}`;
    const n = this.#asked.get(key) ?? 0;
    this.#asked.set(key, n + 1);
    const other = this.answerAbout?.(op, intentId, n);
    if (other === undefined || other === intentId) return this.receiptAt(intentId, at);
    return this.intents.has(other) ? this.receiptAt(other, at) : { ...this.receiptAt(intentId, at), intentId: other, status: 'FAILED' };
  }

  /** The transport the tracker talks to. */
  transport(): ReceiptTransport {
    const t: ReceiptTransport = {
      waitIntentReceipt: (req, options) => this.#wait(req, options),
      getIntentReceipt: (req, options) => this.#receipt(req.intentId, options),
    };
    if (this.history) t.getIntentHistoryLite = (req, options) => this.#historyPage(req, options);
    return t;
  }

  /**
   * The worker's client of one lane, as `lib/worker/client-cache.ts` builds it: every call takes its place in
   * `budget` first (its time-out counted from when it is sent) and is logged with its lane; `signal` (the worker's
   * life) aborts every call of a worker that died. GetIntentHistory answers as the tracker's lite form does (an empty
   * list when this service has no history); GetIntent gives an intent without a quote estimate.
   */
  client(lane: Lane, budget?: RequestBudget, signal?: AbortSignal): FakeClient {
    const via =
      <Req, Res>(call: (req: Req, options: CallOptions) => Promise<Res>) =>
      (req: Req, options: CallOptions = {}): Promise<Res> => {
        // Either signal aborts the call. (Not AbortSignal.any: Node 20 keeps every signal it makes for as long as its
        // sources live, and a campaign of thousands of worker lives ran out of memory.)
        const both = new AbortController();
        const sources = [options.signal, signal].filter((x): x is AbortSignal => x !== undefined);
        const abort = () => both.abort();
        for (const x of sources) {
          if (x.aborted) both.abort();
          else x.addEventListener('abort', abort, { once: true });
        }
        const o: CallOptions = { ...options, lane, signal: both.signal };
        const settled = <T>(p: Promise<T>) =>
          p.finally(() => {
            for (const x of sources) x.removeEventListener('abort', abort);
          });
        if (!budget) return settled(call(req, o));
        // As lib/api/http.ts does: a 429's Retry-After holds every request of the worker, said before the place is
        // given up.
        const send = () =>
          call(req, o).catch((err: unknown) => {
            if (err instanceof SvcServiceError && err.httpStatus === 429 && err.retryAfterSeconds !== undefined)
              budget.holdOff(err.retryAfterSeconds * 1000);
            throw err;
          });
        return settled(
          budget.run(lane, send, {
            signal: both.signal,
            ...(o.stillWanted ? { stillWanted: o.stillWanted } : {}),
          }),
        );
      };
    const history = (req: HistoryLiteRequest, options?: CallOptions): Promise<HistoryLiteResponse> =>
      this.history ? this.#historyPage(req, options) : this.#emptyHistory(options);
    return {
      waitIntentReceipt: via((req: WaitIntentReceiptRequest, o) => this.#wait(req, o)),
      getIntentReceipt: via((req: { intentId: string }, o) => this.#receipt(req.intentId, o)),
      getIntentHistoryLite: via(history),
      getIntentHistory: via(history),
      getIntent: via((req: { intentId: string }, o) => this.#intent(req.intentId, o)),
    };
  }

  async #serve<T>(entry: LogEntry, options: CallOptions | undefined, body: (deadline: number) => Promise<T>) {
    if (options?.lane) entry.lane = options.lane;
    this.log.push(entry);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const other = entry.lane !== 'user';
    if (other) this.maxOthersInFlight = Math.max(this.maxOthersInFlight, ++this.#othersInFlight);
    const fault = this.faults[this.#calls++] ?? 'ok';
    const signal = options?.signal;
    const clientDeadline = options?.timeoutMs !== undefined ? entry.start + options.timeoutMs : Number.POSITIVE_INFINITY;
    try {
      await this.clock.sleep(this.latencyMs, signal);
      if (signal?.aborted) throw new SvcAbortedError(entry.op);
      const op = OPERATIONS[entry.op];
      if (fault === '500') throw new SvcServiceError(op, { errorName: 'WebrpcInternalError', code: -7, msg: 'x', httpStatus: 500 });
      if (fault === 'reset') throw new SvcNetworkError(op, 'http://fake', 'reset');
      if (fault === 'malformed') throw new SvcBadBodyError(op, 200, 'a body that is not JSON', '{');
      if (fault === '401') throw new SvcServiceError(op, { errorName: 'AccessKeyNotFound', code: 1101, msg: 'x', httpStatus: 401 });
      if (fault === '429') {
        entry.retryAfterMs = RETRY_AFTER_S * 1000;
        throw new SvcServiceError(op, {
          errorName: 'RateLimited',
          code: 1007,
          msg: 'x',
          httpStatus: 429,
          retryAfterSeconds: RETRY_AFTER_S,
        });
      }
      if (fault === 'timeout') {
        await this.clock.sleep(Math.min(clientDeadline, entry.start + 150_000) - this.clock.now(), signal);
        if (signal?.aborted) throw new SvcAbortedError(op);
        throw new SvcTimeoutError(op, clientDeadline - entry.start);
      }
      const result = await body(clientDeadline);
      entry.outcome = 'answer';
      this.onServerTime?.(Math.floor(this.clock.now() / 1000) * 1000);
      return result;
    } catch (err) {
      entry.outcome = signal?.aborted || err instanceof SvcTimeoutError ? 'abandoned' : 'error';
      entry.error = err instanceof Error ? err.message : String(err);
      throw err;
    } finally {
      entry.end = this.clock.now();
      this.inFlight--;
      if (other) this.#othersInFlight--;
    }
  }

  #known(op: string, intentId: string): void {
    const intent = this.intents.get(intentId);
    if (!intent || (intent.visibleAt !== undefined && this.clock.now() < intent.visibleAt)) {
      throw new SvcServiceError(op, { errorName: 'NotFound', code: 8000, msg: 'intent not found', httpStatus: 400 });
    }
  }

  #wait(req: WaitIntentReceiptRequest, options?: CallOptions): Promise<WaitIntentReceiptResponse> {
    const entry: LogEntry = { op: 'wait', intentId: req.intentId, start: this.clock.now() };
    return this.#serve(entry, options, async (clientDeadline) => {
      this.#known('WaitIntentReceipt', req.intentId);
      const serverDeadline = this.clock.now() + this.waitMs;
      const intent = this.intents.get(req.intentId)!;
      for (;;) {
        const now = this.clock.now();
        const step = this.stepAt(req.intentId, now);
        const last = req.lastReceiptStates ?? [];
        const changed = step.states.length !== last.length || step.states.some((s, i) => s !== last[i]);
        const done = step.status === 'SUCCEEDED' || step.status === 'FAILED' || this.doneWhile.includes(step.status);
        if (changed || done || now >= serverDeadline) {
          const intentReceipt = this.#answerReceipt('wait', req.intentId, now);
          entry.status = intentReceipt.status;
          if (intentReceipt.intentId !== req.intentId) entry.foreign = intentReceipt.intentId;
          return { intentReceipt, receiptStates: step.states, done };
        }
        const next = intent.steps.find((s) => s.at > now)?.at ?? Number.POSITIVE_INFINITY;
        const until = Math.min(next, serverDeadline, clientDeadline);
        await this.clock.sleep(until - now, options?.signal);
        if (options?.signal?.aborted) throw new SvcAbortedError('WaitIntentReceipt');
        if (this.clock.now() >= clientDeadline && this.clock.now() < serverDeadline) {
          throw new SvcTimeoutError('WaitIntentReceipt', clientDeadline - entry.start);
        }
      }
    });
  }

  #receipt(intentId: string, options?: CallOptions) {
    const entry: LogEntry = { op: 'receipt', intentId, start: this.clock.now() };
    return this.#serve(entry, options, async () => {
      this.#known('GetIntentReceipt', intentId);
      const receipt = this.#answerReceipt('receipt', intentId, this.clock.now());
      entry.status = receipt.status;
      if (receipt.intentId !== intentId) entry.foreign = receipt.intentId;
      return { intentReceipt: receipt };
    });
  }

  #intent(intentId: string, options?: CallOptions): Promise<GetIntentResponse> {
    const entry: LogEntry = { op: 'intent', intentId, start: this.clock.now() };
    return this.#serve(entry, options, async () => {
      this.#known('GetIntent', intentId);
      return { intent: { intentId, originChainId: 42161, destinationChainId: 8453, quote: {} } };
    });
  }

  #emptyHistory(options?: CallOptions): Promise<HistoryLiteResponse> {
    return this.#serve({ op: 'history', start: this.clock.now() }, options, async () => ({ intents: [] }));
  }

  #historyPage(req: HistoryLiteRequest, options?: CallOptions): Promise<HistoryLiteResponse> {
    const entry: LogEntry = { op: 'history', start: this.clock.now() };
    return this.#serve(entry, options, async () => {
      const mode = this.history!;
      const now = this.clock.now();
      const statuses = new Set(req.byStatuses ?? []);
      const from = (req.fromTime ?? 0) * 1000;
      const owner = mode.ignoreOwner ? undefined : req.byOwnerAddress?.toLowerCase();
      type Row = { intentId: string; createdAt: number; status: string; receipt: IntentReceipt };
      const rows: Row[] = [];
      for (const intent of this.intents.values()) {
        if (!intent.inHistory || intent.createdAt < from || (intent.visibleAt ?? 0) > now) continue;
        if (owner && intent.ownerAddress.toLowerCase() !== owner) continue;
        const receipt = this.receiptAt(intent.intentId, now);
        if (statuses.size === 0 || statuses.has(receipt.status))
          rows.push({ intentId: intent.intentId, createdAt: intent.createdAt, status: receipt.status, receipt });
        else if (mode.staleRows && intent.steps[0]!.status !== receipt.status) {
          rows.push({
            intentId: intent.intentId,
            createdAt: intent.createdAt,
            status: intent.steps[0]!.status,
            receipt: { ...receipt, status: intent.steps[0]!.status },
          });
        }
      }
      rows.sort((a, b) => b.createdAt - a.createdAt);
      // Others are sorted newest first: merge the page from both lists without copying the thousands.
      const after = req.page.after ?? Number.POSITIVE_INFINITY;
      const size = Math.min(100, req.page.pageSize);
      const page: Row[] = [];
      let i = rows.findIndex((r) => r.createdAt < after);
      if (i < 0) i = rows.length;
      let lo = 0;
      let hi = this.#others.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.#others[mid]!.createdAt < after) hi = mid;
        else lo = mid + 1;
      }
      let j = lo;
      while (page.length <= size) {
        while (j < this.#others.length && owner && this.#others[j]!.ownerAddress !== owner) j++;
        const o = j < this.#others.length && this.#others[j]!.createdAt >= from ? this.#others[j]! : undefined;
        const r = rows[i];
        if (!o && !r) break;
        if (r && (!o || r.createdAt >= o.createdAt)) {
          page.push(r);
          i++;
        } else if (o) {
          page.push({
            intentId: o.intentId,
            createdAt: o.createdAt,
            status: o.status,
            receipt: {
              intentId: o.intentId,
              status: o.status,
              ownerAddress: o.ownerAddress,
              createdAt: new Date(o.createdAt).toISOString(),
            },
          });
          j++;
        }
      }
      const more = page.length > size;
      if (more) page.pop();
      if (mode.outOfOrder) page.reverse();
      entry.finalRows = page.map((r) => ({ intentId: r.intentId, status: r.status }));
      return {
        intents: page.map((r) => ({ intentId: r.intentId, status: r.status, receipt: r.receipt })),
        ...(more
          ? {
              nextPage: {
                after: mode.repeatCursor && req.page.after !== undefined ? req.page.after : Math.min(...page.map((r) => r.createdAt)),
                more: true,
              },
            }
          : {}),
      };
    });
  }
}
