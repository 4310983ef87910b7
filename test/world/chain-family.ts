/**
 * The `chain` family of the world campaign (issue 28): on-chain verification inside the whole-worker world. One or two
 * of the run's intents are chain intents: their receipts name a deposit and an origin transaction on Arbitrum One and
 * a destination on Base, transactions that exist on simulated chains (./chain-sim.ts). Verification is turned on in the
 * worker's `storage.local` (`chainPreferences`) with both RPC origins granted; the world's network routes the RPC URLs
 * to the chains, with the RPC faults (HTTP 500, JSON-RPC error, time-out), the span during which Base's URL answers for
 * another chain, and the re-orgs of Base, all drawn by the seed — while the worker dies, idles, restarts as in every run.
 *
 * Each chain intent's story (as ./chain-campaign.ts): the destination transfers the exact amount, a smaller one,
 * reverts, or never appears; the service says SUCCEEDED 0 s – 2 min after the destination was mined (the intent's
 * SUCCEEDED step; its EXECUTING step is when the deposit and origin are mined).
 *
 * The oracle V1 reads what the user was shown — the desktop's notifications (`svc-chain:<intentId>:<ms>`, the disagreement read from its words) and the
 * verdicts the popup reads (`chainVerdict:<intentId>` in storage.local) — against the simulated truth:
 * - "verified on-chain" (a verdict written `verified`) only while the service says SUCCEEDED and the destination is on
 *   Base's canonical chain, successful, of the exact amount, with at least the finality depth of confirmations;
 * - each disagreement shown at most once (one desktop `create` per intent, kind and chain: the outbox queues a key once
 *   and keeps a shown chain job; the one stated window is Chrome's repeat of the very call — same notification id — for
 *   an intent whose job was `showing` as the worker died, test/world/death-excuses.ts), and only when true: as it appeared, or at some RPC answer or write of the intent's
 *   record in the window before — 10 s, widened to the start of any death or IndexedDB refusal window
 *   ({@link CheckContext.over}) overlapping it, since the outbox hands a queued job to the next worker (a settled leg
 *   is not asked again: a disagreement found when the service catches up rests on an older answer);
 * - every verifiable leg of the intent's last recorded receipt with a verdict by the end, and "verified" at the end
 *   when the story ended well (the destination final with the exact amount, the service SUCCEEDED) — unless removed;
 *   a leg is excused only when the worker kept asking about it through RPC faults to the end, or when a record named
 *   it so late that its origin's stated budget (30 a minute, burst 8, replayed from the requests it saw) held no
 *   check of it before the end.
 */
import fc from 'fast-check';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import { MAX_CHECK_MS } from '@/lib/chain/cadence';
import type { DisagreementKind } from '@/lib/chain/disagreement';
import { verifiableLegs } from '@/lib/chain/legs';
import { disagreementText } from '@/lib/format/verification';
import { CHAIN } from '@/lib/notify/browser';
import { CHAIN_PREFERENCES_KEY, CHAIN_VERDICT_PREFIX, readChainVerdict } from '@/lib/store/chain';
import { reorgsArb, rpcFaultsArb, rpcFetch, SimChain } from './chain-sim';
import type { CheckContext, FamilyContext, FamilyCount } from './family-types';
import { budgetOwedAt, CHECK_REQUESTS } from './rpc-budget';

const ARB = 'https://arb.rpc.example';
const BASE = 'https://base.rpc.example';
const DEPTH = { 42161: 20, 8453: 10 } as const;
const BLOCK_MS = { 42161: 1_000, 8453: 2_000 } as const;
const TOKEN = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const AMOUNT = 249_100_000n;
/** How long before a telling its evidence may be, when no death or refusal window delays the outbox. */
const FRESH_MS = 10_000;

const story = fc.constantFrom('exact', 'exact', 'smaller', 'reverted', 'missing');

/** The family's part of a schedule (undefined: no chain intent in this run; one run in five). */
export const chainArb = fc.option(
  fc.record({
    intents: fc.array(fc.record({ index: fc.nat(), story, lagMs: fc.constantFrom(0, 5_000, 30_000, 120_000) }), {
      minLength: 1,
      maxLength: 2,
    }),
    /** Re-orgs of Base after the first chain intent's destination is mined. */
    reorgs: reorgsArb,
    ...rpcFaultsArb,
    /** Spans (world time) during which Base's URL answers for another chain. */
    wrongChain: fc.array(fc.record({ fromMs: fc.integer({ min: 0, max: 12 * 60_000 }), forMs: fc.integer({ min: 1_000, max: 90_000 }) }), {
      maxLength: 1,
    }),
  }),
  { nil: undefined },
);

/** The family's part of a schedule. */
export type ChainSpec = NonNullable<typeof chainArb extends fc.Arbitrary<infer T> ? T : never>;

/** The schedule's indices of the chain intents (never the stuck family's intent, which must not end). */
function chainIndices(spec: ChainSpec | undefined, count: number, stuckIndex: number | undefined): number[] {
  const out = new Set<number>();
  for (const c of spec?.intents ?? []) {
    const k = c.index % count;
    if (k !== stuckIndex) out.add(k);
  }
  return [...out];
}

/** The schedule with its chain intents made to succeed (committed, executing, then SUCCEEDED). */
export function withChainIntents<S extends { intents: ReadonlyArray<{ committedFor: number; end: string }> }>(
  s: S,
  spec: ChainSpec | undefined,
  stuckIndex: number | undefined,
): S {
  if (!spec) return s;
  const ks = new Set(chainIndices(spec, s.intents.length, stuckIndex));
  const intents = s.intents.map((x, i) => (ks.has(i) ? { ...x, committedFor: Math.max(x.committedFor, 5_000), end: 'SUCCEEDED' } : x));
  return { ...s, intents };
}

/** The truth about one chain intent at an RPC answer (world time `t`, ms since the start). */
interface Truth {
  t: number;
  /** The destination on Base's canonical chain: its status, amount and confirmations. */
  dest?: { status: 'success' | 'reverted'; amount: bigint; confirmations: number };
  /** The service's status then, and the status of the worker's last recorded receipt. */
  service: string;
  recorded: string;
  /** A re-org had dropped the destination by then. */
  dropped: boolean;
}

/** What the family saw of a run. */
export interface ChainObs {
  ids: string[];
  story: Map<string, ChainSpec['intents'][number]['story']>;
  /** Truth samples per chain intent: at each RPC answer, write of a chain intent's record, and desktop appearance. */
  truth: Map<string, Truth[]>;
  /** Violations seen as they happened (a verdict written "verified" falsely). */
  violations: string[];
  /** "Verified" writes checked. */
  verifiedWrites: number;
  /** The truth now (the end's checks). */
  now(id: string): Truth;
  /** World times at which the worker asked for each transaction's receipt (by hash, lower case). */
  asks: Map<string, number[]>;
  /** World times at which a request met an RPC fault or a wrong-chain answer, per chain id. */
  faultsAt: Map<number, Set<number>>;
  /** World times of every receipt request (an observation's first), per chain id. */
  readsAt: Map<number, number[]>;
  /**
   * Whether each read (by `hash@t`, its receipt request's world time) met an RPC fault or a wrong-chain answer: at its
   * receipt request, or at a request of its own follow-up burst (lib/chain/rpc.ts `observe`: chain id, head, block,
   * transaction, sent together once the receipt is answered), found by pairing each burst with the receipt answers of
   * that chain in the order they came, within one worker life. Undefined for a read whose burst could not be paired
   * for sure (its block request named another block than its receipt's): {@link faultedAsk} then falls back on time.
   * One entry per read: two reads of one leg at the same instant are two entries, not one overwritten.
   */
  readFaulted: Map<string, Array<{ faulted: boolean | undefined }>>;
  /**
   * World times of the RPC budget's tokens taken, per chain id (its replay, test/world/rpc-budget.ts): a check of a leg
   * takes its 4 at its first request (the receipt's), however many it then sends — one that meets a fault sends fewer.
   * A check of a leg the worker had stored final ({@link ChainObs.storedFinalAt}) is left out: wasted, not owed.
   */
  requests: Map<number, number[]>;
  /** World time at which a record of the worker first named each verifiable leg (by hash, lower case). */
  namedAt: Map<string, number>;
  /**
   * World time at which the worker first stored each leg's verdict final (by hash, lower case): a receipt request of it
   * from then on is a read a settled leg never needs (docs/chain.md), left out of {@link ChainObs.requests}.
   */
  storedFinalAt: Map<string, number>;
  /**
   * Each leg line the worker stored for the popup (`intentId|leg|hash`, hash in lower case), once storage took it:
   * a stored line stands as the leg's last known verdict while its chain stays on (lib/worker/chain-resume.ts), so a
   * leg once stored and missing at the end is never excused by faults, the budget or a death.
   */
  storedLines: Set<string>;
}

const hashOf = (n: number, leg: number) => `0x${(n * 16 + leg + 1).toString(16).padStart(64, 'c')}`;

/** Plays the family: the chains, their routes, the receipts' legs, the preferences and the grant. */
export function playChain(ctx: FamilyContext, spec: ChainSpec | undefined, stuckIndex: number | undefined): ChainObs | undefined {
  const ks = chainIndices(spec, ctx.ids.length, stuckIndex);
  if (!spec || ks.length === 0) return undefined;
  const { world } = ctx;
  const arb = new SimChain(42161);
  const base = new SimChain(8453);
  const mined = { 42161: 0, 8453: 0 };
  /** Mines each chain's blocks up to world time `t` (blocks come on time whether anyone asks or not). */
  const sync = () => {
    for (const [chain, id] of [
      [arb, 42161],
      [base, 8453],
    ] as const)
      while (mined[id] + BLOCK_MS[id] <= world.time.t) {
        chain.mine();
        mined[id] += BLOCK_MS[id];
      }
  };
  const at = (t: number, fn: () => void) =>
    ctx.at(Math.max(world.time.t, t), () => {
      sync();
      fn();
    });

  const obs: ChainObs = {
    ids: [],
    story: new Map(),
    truth: new Map(),
    violations: [],
    verifiedWrites: 0,
    now: () => undefined as never,
    asks: new Map(),
    faultsAt: new Map(),
    readsAt: new Map(),
    readFaulted: new Map(),
    requests: new Map(),
    namedAt: new Map(),
    storedFinalAt: new Map(),
    storedLines: new Set(),
  };
  const recorded = new Map<string, string>();
  const plan = new Map<string, { executingAt: number; succeededAt: number; destAt: number; n: number }>();
  let dropped = false;
  spec.intents.forEach((c, n) => {
    const k = c.index % ctx.ids.length;
    const id = ctx.ids[k]!;
    if (!ks.includes(k) || plan.has(id)) return;
    const steps = ctx.service.intents.get(id)!.steps;
    const executingAt = steps.find((st) => st.status === 'EXECUTING')!.at - ctx.T0;
    const succeededAt = steps.find((st) => st.status === 'SUCCEEDED')!.at - ctx.T0;
    const destAt = Math.max(executingAt + 2_000, succeededAt - c.lagMs);
    plan.set(id, { executingAt, succeededAt, destAt, n });
    obs.ids.push(id);
    obs.story.set(id, c.story);
    obs.truth.set(id, []);
    const transfer = { token: TOKEN, to: TO, amount: 250_000_000n };
    at(executingAt, () => void arb.include({ hash: hashOf(n, 0), status: 'success', ...transfer }));
    at(executingAt + 1_000, () => void arb.include({ hash: hashOf(n, 1), status: 'success', ...transfer }));
    if (c.story !== 'missing')
      at(destAt, () => {
        base.include({
          hash: hashOf(n, 2),
          status: c.story === 'reverted' ? 'reverted' : 'success',
          token: TOKEN,
          to: TO,
          amount: c.story === 'smaller' ? 200_000_000n : AMOUNT,
        });
      });
  });
  const first = Math.min(...[...plan.values()].map((p) => p.destAt));
  for (const r of spec.reorgs)
    at(first + r.afterMs, () => {
      const out = base.reorg(r.depth);
      if (out.length > 0) dropped = true;
      if (r.backAfterBlocks !== null)
        for (const tx of out) at(world.time.t + r.backAfterBlocks * BLOCK_MS[8453] + 1, () => void (base.tx(tx.hash) || base.include(tx)));
    });

  const truthOf = (id: string): Truth => {
    sync();
    const p = plan.get(id)!;
    const tx = base.tx(hashOf(p.n, 2));
    const t = world.time.t;
    return {
      t,
      ...(tx ? { dest: { status: tx.status, amount: tx.amount, confirmations: base.head - tx.block + 1 } } : {}),
      service: t >= p.succeededAt ? 'SUCCEEDED' : t >= p.executingAt ? 'EXECUTING' : 'COMMITTED',
      recorded: recorded.get(id) ?? '',
      dropped,
    };
  };
  obs.now = truthOf;
  /** A truth sample of every chain intent now: at each RPC answer, record write and appearance on the desktop. */
  const sample = () => {
    for (const id of obs.ids) obs.truth.get(id)!.push(truthOf(id));
  };
  const log = world.profile.desktop.log;
  const push = log.push.bind(log);
  log.push = (...items) => {
    sample();
    return push(...items);
  };

  // The receipts name the legs once they are mined (the destination 200 ms after, as the service sees it; a
  // SUCCEEDED receipt always names it).
  ctx.patches.push((op, _id, result) => {
    const receipts = [
      (result as { intentReceipt?: Record<string, unknown> }).intentReceipt,
      ...((result as { intents?: Array<{ receipt?: Record<string, unknown> }> }).intents ?? []).map((r) => r.receipt),
    ];
    if (op !== 'wait' && op !== 'receipt' && op !== 'history') return;
    for (const r of receipts) {
      const p = r && plan.get(r.intentId as string);
      if (!r || !p) continue;
      const t = world.time.t;
      const leg = (chainId: number, n: number, minedNow: boolean, extra: object = {}) => ({
        chainId,
        txnHash: hashOf(p.n, n),
        ...(minedNow ? { status: 'SUCCEEDED', txnMinedAt: new Date(ctx.T0 + t).toISOString() } : { status: 'MINING' }),
        ...extra,
      });
      if (t >= p.executingAt) r.depositTransaction = leg(42161, 0, true);
      if (t >= p.executingAt + 1_000) r.originTransaction = leg(42161, 1, true);
      if (t >= p.destAt + 200 || r.status === 'SUCCEEDED')
        r.destinationTransaction = leg(8453, 2, r.status === 'SUCCEEDED', { tokenAmount: AMOUNT.toString(), tokenAddress: TOKEN });
      r.summary = { destinationToAddress: TO, destinationTokenAddress: TOKEN, destinationTokenMetadata: { symbol: 'USDC', decimals: 6 } };
    }
  });

  // The worker's view of each intent's status (its record), and the verdicts it writes for the popup.
  const onWrite = world.idb.onIntentWrite;
  world.idb.onIntentWrite = (id, value) => {
    onWrite?.(id, value);
    const receipt = (value as { receipt?: IntentReceipt } | undefined)?.receipt;
    const status = receipt?.status;
    if (plan.has(id) && status) recorded.set(id, status);
    if (plan.has(id) && receipt)
      for (const l of verifiableLegs(receipt))
        if (!obs.namedAt.has(l.txnHash.toLowerCase())) obs.namedAt.set(l.txnHash.toLowerCase(), world.time.t);
    if (plan.has(id)) sample();
  };
  const local = world.profile.local;
  const set = local.set.bind(local);
  const verified = new Set<string>();
  local.set = (key, value) => {
    if (key.startsWith(CHAIN_VERDICT_PREFIX)) {
      const id = key.slice(CHAIN_VERDICT_PREFIX.length);
      const v = readChainVerdict(value);
      for (const l of v?.legs ?? [])
        if (l.final && l.txnHash && !obs.storedFinalAt.has(l.txnHash.toLowerCase()))
          obs.storedFinalAt.set(l.txnHash.toLowerCase(), world.time.t);
      if (v?.verified && plan.has(id) && !verified.has(id)) {
        obs.verifiedWrites++;
        const now = truthOf(id);
        const last = obs.truth.get(id)!.at(-1);
        if (!verifiedTrue(now) && !(last && last.t === now.t && verifiedTrue(last)))
          obs.violations.push(`V1 "verified on-chain" for ${id.slice(0, 8)}… at ${now.t} ms while the truth is ${show(now)}`);
      }
      if (plan.has(id)) v?.verified ? verified.add(id) : verified.delete(id);
      // The profile's map is written only once the storage area took the write (a refused one never gets here).
      for (const l of v?.legs ?? []) if (l.txnHash) obs.storedLines.add(`${id}|${l.leg}|${l.txnHash.toLowerCase()}`);
    }
    return set(key, value);
  };
  local.set(CHAIN_PREFERENCES_KEY, {
    42161: { enabled: true, rpcUrl: ARB, finalityDepth: DEPTH[42161] },
    8453: { enabled: true, rpcUrl: BASE, finalityDepth: DEPTH[8453] },
  });
  for (const u of [ARB, BASE]) world.profile.granted.add(`${new URL(u).protocol}//${new URL(u).hostname}/*`);

  // The RPC origins: faults drawn per request; Base's URL answers for another chain during the drawn span.
  const origins = new Map([
    [ARB, arb],
    [BASE, base],
  ]);
  // Each request's fault is drawn as it is sent (synchronously): the oracle keeps when each receipt was asked for and
  // when a request failed, to tell a leg the worker kept asking about through faults from one it forgot.
  let faulted = false;
  const inner = rpcFetch(origins, () => {
    const f = ctx.random() < spec.faultRate ? spec.faults[Math.floor(ctx.random() * spec.faults.length)] : undefined;
    faulted = f !== undefined;
    return f;
  });
  const wrong = rpcFetch(new Map([[BASE, base]]), () => 'wrongChain');
  // Each read's follow-up burst is paired with its receipt answer (ChainObs.readFaulted): per chain, the reads whose
  // receipt was answered (in the order the answers came) wait for their burst, which begins with `eth_chainId`.
  type Read = { hash: string; block: number | undefined; state: { faulted: boolean | undefined } };
  const answered = new Map<number, Read[]>();
  const bursting = new Map<number, Read | undefined>();
  const lifeOf = new Map<number, number>();
  for (const [origin, chain] of origins)
    world.net.routes.set(origin, async (url, init) => {
      sync();
      const t = world.time.t;
      const wrongNow = origin === BASE && spec.wrongChain.some((w) => t >= w.fromMs && t < w.fromMs + w.forMs);
      faulted = wrongNow;
      const pending = (wrongNow ? wrong : inner)(url, init);
      const body = JSON.parse(String(init.body)) as { method: string; params?: unknown[] };
      if (faulted) obs.faultsAt.set(chain.chainId, (obs.faultsAt.get(chain.chainId) ?? new Set()).add(t));
      const hash = String(body.params?.[0] ?? '').toLowerCase();
      // A read cut by a death never sends its burst: the pairing starts afresh with each worker life.
      if (lifeOf.get(chain.chainId) !== world.lives.length) {
        lifeOf.set(chain.chainId, world.lives.length);
        answered.set(chain.chainId, []);
        bursting.delete(chain.chainId);
      }
      let read: Read | undefined;
      if (body.method === 'eth_getTransactionReceipt') {
        read = { hash, block: chain.tx(hash)?.block, state: { faulted } };
        obs.readFaulted.set(`${hash}@${t}`, [...(obs.readFaulted.get(`${hash}@${t}`) ?? []), read.state]);
      } else {
        if (body.method === 'eth_chainId') bursting.set(chain.chainId, answered.get(chain.chainId)?.shift());
        const own = bursting.get(chain.chainId);
        if (own && body.method === 'eth_getBlockByNumber' && Number(body.params?.[0]) !== own.block) own.state.faulted = undefined;
        else if (own && faulted && own.state.faulted === false) own.state.faulted = true;
      }
      if (body.method === 'eth_getTransactionReceipt') {
        obs.asks.set(hash, [...(obs.asks.get(hash) ?? []), t]);
        obs.readsAt.set(chain.chainId, [...(obs.readsAt.get(chain.chainId) ?? []), t]);
        // A leg the worker already stored final is never read again: its budget spent so is not "spent on other legs".
        if (!((obs.storedFinalAt.get(hash) ?? Number.POSITIVE_INFINITY) <= t))
          obs.requests.set(chain.chainId, [...(obs.requests.get(chain.chainId) ?? []), ...Array<number>(CHECK_REQUESTS).fill(t)]);
      }
      const answer = await pending;
      // Answered (a wrong chain's answer too): the worker goes on with the read's burst.
      if (read && (!read.state.faulted || wrongNow) && lifeOf.get(chain.chainId) === world.lives.length)
        answered.get(chain.chainId)?.push(read);
      sample();
      return answer;
    });
  return obs;
}

/**
 * How long one observation's requests can take in the world: its receipt request, then at most 4 more sent together,
 * each taking up to 100 ms under `slowCalls` (./world.ts), and a margin.
 */
const OBSERVATION_MS = 1_000;

/**
 * Whether the worker's read of leg `hash` asked at `t` (its receipt request) met an RPC fault or a wrong-chain answer on
 * chain `chainId`: at its receipt request or at a request of its own burst ({@link ChainObs.readFaulted}; two reads on
 * one chain overlap, and a fault of one's burst is not the other's: run 137 of seed 20261128, whose leg was left
 * unexcused for the other read's answered burst). When the pairing is unsure, by time: at `t` itself, or at a later
 * request within {@link OBSERVATION_MS} (under `slowCalls` each request takes time, so the chain id, head and block
 * requests come 5–100 ms after the receipt's: run 4126 of seed 20261227), but only when no other read began on that
 * chain within it: otherwise the fault may be the other read's, and the ask counts as answered.
 */
function faultedAsk(obs: ChainObs, chainId: number, t: number, hash?: string): boolean {
  // Every read of the leg at that instant: faulted only if each one was (one answered is an answer).
  const own = hash === undefined ? undefined : obs.readFaulted.get(`${hash}@${t}`);
  if (own?.every((r) => r.faulted !== undefined)) return own.every((r) => r.faulted);
  const faults = obs.faultsAt.get(chainId) ?? new Set<number>();
  if (faults.has(t)) return true;
  const alone = (obs.readsAt.get(chainId) ?? []).filter((u) => Math.abs(u - t) <= OBSERVATION_MS).length === 1;
  return alone && [...faults].some((f) => f > t && f <= t + OBSERVATION_MS);
}

/** How long before the end the worker must still have asked about a leg it has no verdict of: the cadence's longest delay and a margin. */
const STILL_ASKING_MS = MAX_CHECK_MS + 15_000;

/**
 * Whether the worker kept asking about a leg through faults until the end (docs/chain.md, "World runs"): it asked for
 * the leg's receipt within {@link STILL_ASKING_MS} of the end, and every ask of the last worker life (from `from` on,
 * for "verified": from when the truth first was) met an RPC fault or a wrong-chain answer on that chain at that
 * moment. A leg the worker stopped asking about is never excused.
 */
function stillFaulted(ctx: CheckContext, obs: ChainObs) {
  const end = ctx.end - ctx.T0;
  const lastLife = Math.max(0, ...ctx.deaths.map((d) => (d.restartAt ?? 0) - ctx.T0).filter((t) => t <= end));
  /** `from` (ms): only the asks from then on count (default: the last life's start). */
  return (leg: { chainId: number; txnHash: string }, from = 0) => {
    const asks = obs.asks.get(leg.txnHash.toLowerCase()) ?? [];
    const since = Math.max(lastLife, from);
    return (
      asks.some((t) => t >= end - STILL_ASKING_MS) &&
      asks.filter((t) => t >= since).every((t) => faultedAsk(obs, leg.chainId, t, leg.txnHash.toLowerCase()))
    );
  };
}

/**
 * Whether a leg without a verdict at the end was left so by a death the run ends in (docs/simulation.md, "death": from
 * a worker's death until the next worker started, here none did): every ask of it since a record first named it met an
 * RPC fault (or none was made), and the workers ran at most {@link STILL_ASKING_MS} between the last of those asks (or
 * the naming, or `from`) and that death: a worker still asking through faults when it died, or one that had no time
 * to ask. A leg the living workers left unasked longer is the worker's fault, never excused.
 */
function deadAtTheEnd(ctx: CheckContext, obs: ChainObs) {
  // The run's end is listed as a death of kind `end`: not one a worker could have outlived.
  const deaths = ctx.deaths
    .filter((d) => d.kind !== 'end')
    .map((d) => ({ at: d.at - ctx.T0, until: (d.restartAt ?? Number.POSITIVE_INFINITY) - ctx.T0 }));
  const last = deaths.reduce<(typeof deaths)[number] | undefined>((a, d) => (a && a.at > d.at ? a : d), undefined);
  const dead = last !== undefined && last.until === Number.POSITIVE_INFINITY;
  /** Ms of [a, b] during which a worker ran (outside every death's window). */
  const alive = (a: number, b: number) => {
    let ran = 0;
    let t = a;
    for (const d of [...deaths].sort((x, y) => x.at - y.at)) {
      if (d.at > t) ran += Math.min(d.at, b) - t;
      t = Math.max(t, d.until);
      if (t >= b) break;
    }
    return Math.max(0, ran + (t < b ? b - t : 0));
  };
  /** `from` (ms): only the asks from then on count (default: since a record first named the leg). */
  return (leg: { chainId: number; txnHash: string }, from = 0) => {
    const hash = leg.txnHash.toLowerCase();
    const named = obs.namedAt.get(hash);
    if (!dead || named === undefined) return false;
    const asks = (obs.asks.get(hash) ?? []).filter((t) => t >= Math.max(named, from));
    return asks.every((t) => faultedAsk(obs, leg.chainId, t, hash)) && alive(Math.max(named, from, ...asks), last.at) <= STILL_ASKING_MS;
  };
}

/**
 * Whether a leg without a verdict at the end waited on its RPC origin's budget (docs/chain.md "Budgets": 30 requests a
 * minute, burst 8, 4 a check): never asked since a record first named it, and the budget, replayed from the requests
 * that origin saw ({@link budgetOwedAt}), held a check's requests only later than 1 s before the end (the cadence's
 * shortest wait for the timer, {@link MIN_DUE_MS}).
 */
function budgetWait(ctx: CheckContext, obs: ChainObs) {
  const end = ctx.end - ctx.T0;
  const lifeStarts = ctx.world.lives.map((l) => l.bornAt);
  return (leg: { chainId: number; txnHash: string }) => {
    const hash = leg.txnHash.toLowerCase();
    const named = obs.namedAt.get(hash);
    if (named === undefined || (obs.asks.get(hash) ?? []).some((t) => t >= named)) return false;
    return budgetOwedAt(obs.requests.get(leg.chainId) ?? [], lifeStarts, named) + MIN_DUE_MS > end;
  };
}

/** The worker's shortest delay before a receipt's next check (lib/worker/chain-verify.ts). */
const MIN_DUE_MS = 1_000;

/** The destination is final with the exact amount and the service says SUCCEEDED. */
function verifiedTrue(t: Truth): boolean {
  return t.service === 'SUCCEEDED' && t.dest?.status === 'success' && t.dest.amount === AMOUNT && t.dest.confirmations >= DEPTH[8453];
}

const show = (t: Truth) =>
  JSON.stringify({ ...t, dest: t.dest ? { ...t.dest, amount: String(t.dest.amount) } : undefined }).replaceAll('"', '');

/** The words of each disagreement on each chain (the first line of its notification, lib/notify/chain.ts). */
const KINDS: DisagreementKind[] = ['destination-reverted', 'destination-missing', 'amount-differs', 'reorged', 'arrived-early'];
let told: Array<{ kind: DisagreementKind; chainId: number; text: string }> | undefined;
/** Read when first needed, not at import: `npm run campaign`'s main process imports this module without a browser. */
const toldWords = () =>
  (told ??= KINDS.flatMap((kind) => [42161, 8453].map((chainId) => ({ kind, chainId, text: disagreementText(kind, chainId) }))));

/** Whether the truth `t` bears out telling `kind` about `leg`. */
function bearsOut(kind: string, leg: string, t: Truth): boolean {
  const d = t.dest;
  switch (kind) {
    case 'amount-differs':
      return d !== undefined && d.status === 'success' && d.amount !== AMOUNT;
    case 'destination-reverted':
      return d?.status === 'reverted';
    case 'arrived-early':
      return d?.status === 'success' && d.amount === AMOUNT && (t.service !== 'SUCCEEDED' || t.recorded !== 'SUCCEEDED');
    case 'destination-missing':
      return d === undefined;
    case 'reorged':
      return leg === 'destination' && t.dropped;
    default:
      return false;
  }
}

/** V1: what the user was shown of the chain intents, against the truth (see the module's comment). */
export function checkChain(ctx: CheckContext, obs: ChainObs | undefined, count: FamilyCount): string[] {
  if (!obs) return [];
  const v = [...obs.violations];
  for (let i = 0; i < obs.verifiedWrites; i++) count.ok('V1');
  /** Each disagreement told, with the notification id it was first shown under. */
  const seen = new Map<string, string>();
  for (const a of ctx.desktop.log) {
    if (a.how !== 'create' || !a.id.startsWith(CHAIN)) continue;
    // `svc-chain:<intentId>:<ms>`; the disagreement and its chain are read from the words shown.
    const id = a.id.slice(CHAIN.length).split(':')[0]!;
    const said = toldWords().find((x) => a.message.split('\n')[0] === x.text);
    const what = `${id.slice(0, 8)}… "${said?.text ?? a.message}"`;
    if (!said) {
      v.push(`V1 ${what}: not a disagreement's words`);
      continue;
    }
    const told = `${id} ${said.kind} ${said.chainId}`;
    // Chrome may repeat a notification whose job was `showing` as the worker died (the user closed it before the next
    // worker asked the screen): the same call replayed, under the same notification id (docs/simulation.md).
    if (seen.get(told) === a.id && ctx.repeatAllowed(id)) count.excused('V1', 'Chrome repeat after a death while showing');
    else if (seen.has(told)) v.push(`V1 ${what} shown twice (again at ${a.at - ctx.end} ms before the end)`);
    seen.set(told, a.id);
    const samples = obs.truth.get(id) ?? [];
    const tc = a.at - ctx.T0;
    const windows = ctx.over(id, a.at - FRESH_MS, a.at).filter((w) => /^(death|idb|quota)/.test(w.why));
    const from = Math.min(tc - FRESH_MS, ...windows.map((w) => w.from - ctx.T0 - FRESH_MS));
    const leg = said.chainId === 8453 ? 'destination' : 'origin';
    if (samples.some((x) => x.t >= from && x.t <= tc && bearsOut(said.kind, leg, x))) count.ok('V1');
    else
      v.push(
        `V1 ${what} shown at ${tc} ms, but no RPC answer from ${from} ms bears it out (last: ${show(samples.filter((x) => x.t <= tc).at(-1) ?? ({} as Truth))})`,
      );
  }
  const faultedTo = stillFaulted(ctx, obs);
  const deadSince = deadAtTheEnd(ctx, obs);
  for (const id of obs.ids) {
    const record = ctx.finalList.find((r) => r.intentId === id);
    if (!record?.receipt || ctx.removeAsked.has(id)) continue;
    const verdict = readChainVerdict(ctx.world.profile.local.get(`${CHAIN_VERDICT_PREFIX}${id}`));
    const legs = verifiableLegs(record.receipt as IntentReceipt);
    const want = legs.map((l) => l.leg);
    const have = verdict?.legs.map((l) => l.leg) ?? [];
    const missing = legs.filter((l) => !have.includes(l.leg));
    const waited = budgetWait(ctx, obs);
    const once = missing.filter((l) => obs.storedLines.has(`${id}|${l.leg}|${l.txnHash.toLowerCase()}`));
    if (once.length > 0)
      v.push(`V1 ${id.slice(0, 8)}…: a leg's stored line was dropped: ${JSON.stringify({ want, have, once: once.map((l) => l.leg) })}`);
    else if (missing.length > 0 && missing.every((l) => faultedTo(l)))
      count.excused('V1', 'RPC faults at every ask of the last worker life');
    else if (missing.length > 0 && missing.every((l) => faultedTo(l) || waited(l)))
      count.excused('V1', "the RPC budget: a leg named at the end, its origin's budget spent on other legs");
    else if (missing.length > 0 && missing.every((l) => faultedTo(l) || waited(l) || deadSince(l)))
      count.excused('V1', 'a death the run ends in, every ask since the leg was named faulted');
    else if (missing.length > 0) v.push(`V1 ${id.slice(0, 8)}…: legs without a verdict at the end: ${JSON.stringify({ want, have })}`);
    else count.ok('V1');
    const truth = obs.now(id);
    const destination = legs.find((l) => l.leg === 'destination');
    const good = obs.story.get(id) === 'exact' && record.receipt.status === 'SUCCEEDED' && verifiedTrue(truth);
    const finalAt = obs.truth.get(id)?.find(verifiedTrue)?.t;
    if (good && !verdict?.verified && destination && faultedTo(destination, finalAt))
      count.excused('V1', 'RPC faults at every ask of the last worker life');
    else if (good && !verdict?.verified && destination && deadSince(destination, finalAt))
      count.excused('V1', 'a death the run ends in, every ask since the destination was final faulted');
    else if (good && !verdict?.verified)
      v.push(
        `V1 ${id.slice(0, 8)}… never "verified on-chain" though its story ended well (${show(truth)}; ${JSON.stringify(verdict?.legs.map((l) => l.text))})`,
      );
    else count.ok('V1');
  }
  return v;
}
