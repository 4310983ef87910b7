/**
 * The `trackMany` family of the world campaign (issue 29): the user tracks a pasted list of many intentIds (some not
 * intentIds at all, some repeated, padded with blanks) with the `track-many` message the popup and the welcome page
 * send, or imports another browser's export (JSON or CSV, written by `lib/format/export.ts` and read back by
 * `lib/format/import.ts` as the popup's import does) — during every other fault, kills at any await included. The
 * export carries intents that ended on the other browser (notified there, or exported before they ended). Like the
 * popup, the user sends the same list again when no reply came (the worker died) or the reply was a failure.
 *
 * The oracle (T1, per intent): every valid intentId of the list ends tracked exactly once (one record; the replies
 * never count one as added twice; `already` + `added` cover the list's unique ids, `invalidCount` its invalid texts),
 * nothing is lost (each is still listed at the end unless the user removed it), an intent that had ended and was
 * notified on the other browser is never told again, and one exported before it ended is told once, within S(N) + 1 s
 * of the reply that tracked it, excusing only the stated windows about it (./told-once.ts).
 */
import fc from 'fast-check';
import { exportCsv, exportJson } from '@/lib/format/export';
import { parseImport } from '@/lib/format/import';
import type { TrackedIntent } from '@/lib/store';
import { stalenessBound } from '@/lib/tracker/policy';
import { DEFAULT_TUNING } from '@/lib/tracker/types';
import type { CheckContext, FamilyContext, FamilyCount } from './family-types';
import { checkToldOnce } from './told-once';

const MIN = 60_000;

/** Texts a paste may hold beside intentIds: not one of them is an intentId. */
const NOT_IDS = ['0x1234', 'hello', `0x${'g'.repeat(64)}`, `0x${'1'.repeat(63)}`, `0x${'1'.repeat(65)}`, 'track 0xabc', '—'];

/** The arbitrary of the family's part of a schedule (undefined: off). */
export const trackManyArb = fc.option(
  fc.record({
    at: fc.integer({ min: 0, max: 4 * MIN }),
    /** Per intent of the schedule (by index): in the list (tracked only by it), or tracked on its own. */
    members: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    invalid: fc.array(fc.constantFrom(...NOT_IDS), { maxLength: 4 }),
    /** Repeats of listed ids (some padded with blanks). */
    repeats: fc.array(fc.record({ of: fc.nat(), padded: fc.boolean() }), { maxLength: 3 }),
    /** An import instead of a paste: the export's format and the intents that ended on the other browser. */
    import: fc.option(
      fc.record({
        format: fc.constantFrom<'json' | 'csv'>('json', 'csv'),
        /** Per ended intent: notified there (exported final), or exported while it still executed. */
        ended: fc.array(fc.boolean(), { maxLength: 3 }),
      }),
      { nil: undefined },
    ),
  }),
  { nil: undefined },
);

/** The family's part of a schedule. */
export type TrackManySpec = NonNullable<typeof trackManyArb extends fc.Arbitrary<infer T> ? T : never>;

/** What the family saw in a run. */
export interface TrackManyObs {
  /** The valid intentIds the list names (unique, normalised). */
  valid: string[];
  /** How many texts of the list are not intentIds. */
  invalid: number;
  /** Every reply that came (a dead worker's never does). */
  replies: Array<{ added: number; already: number; invalidCount: number }>;
  /** Imported intents that had ended: notified on the other browser or not. */
  ended: Array<{ intentId: string; notifiedThere: boolean }>;
  /** The list was sent (an empty one is not: the popup sends nothing). */
  sent: boolean;
}

/** The intentId of the k-th intent that ended on the other browser. */
const endedId = (k: number) => `0x${'d'}${String(k + 1).padStart(63, '0')}`;

/** The schedule's intents the list tracks (their own track is not sent). */
export function trackManyMembers(spec: TrackManySpec | undefined, count: number): Set<number> {
  if (!spec) return new Set();
  return new Set(Array.from({ length: count }, (_, i) => i).filter((i) => spec.members[i % spec.members.length]));
}

/** The other browser's records of the listed intents, as its export writes them. */
function otherBrowser(ctx: FamilyContext, members: string[], ended: TrackManyObs['ended']): TrackedIntent[] {
  const { T0 } = ctx;
  const live: TrackedIntent[] = members.map((intentId) => ({
    intentId,
    addedAt: T0 - 30 * MIN,
    lastStates: [],
    phase: 'tracking',
    notification: 'none',
    status: 'COMMITTED',
  }));
  const gone: TrackedIntent[] = ended.map(({ intentId, notifiedThere }) => {
    const receipt = ctx.service.receiptAt(intentId, notifiedThere ? T0 - 20 * MIN : T0 - 50 * MIN);
    return {
      intentId,
      addedAt: T0 - 60 * MIN,
      lastStates: [],
      phase: notifiedThere ? 'final' : 'tracking',
      notification: notifiedThere ? 'shown' : 'none',
      receipt,
      status: receipt.status,
      ...(notifiedThere ? { notifiedAt: T0 - 20 * MIN } : {}),
    } as TrackedIntent;
  });
  return [...live, ...gone];
}

/** Plays the family: builds the list (or the export), sends it at its time, again until a reply says it is tracked. */
export function playTrackMany(ctx: FamilyContext, spec: TrackManySpec | undefined): TrackManyObs | undefined {
  if (!spec) return undefined;
  const members = [...trackManyMembers(spec, ctx.ids.length)].map((i) => ctx.ids[i]!);
  const ended: TrackManyObs['ended'] = (spec.import?.ended ?? []).map((notifiedThere, k) => ({ intentId: endedId(k), notifiedThere }));
  for (const { intentId } of ended) {
    // Created an hour ago, SUCCEEDED 40 minutes ago: long before this browser heard of it.
    const created = ctx.T0 - 60 * MIN;
    ctx.service.add({
      intentId,
      ownerAddress: '0x00000000000000000000000000000000000000b2',
      createdAt: created,
      steps: [
        { at: created, status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'] },
        { at: created + MIN, status: 'EXECUTING', states: ['PENDING', 'UNKNOWN', 'UNKNOWN'] },
        { at: created + 20 * MIN, status: 'SUCCEEDED', states: ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED'] },
      ],
      inHistory: false,
    });
  }
  const obs: TrackManyObs = { valid: [...members, ...ended.map((e) => e.intentId)], invalid: 0, replies: [], ended, sent: false };
  let intents: Array<Record<string, unknown>>;
  if (spec.import) {
    const records = otherBrowser(ctx, members, ended);
    const text = spec.import.format === 'json' ? exportJson(records, ctx.T0 - 10 * MIN) : exportCsv(records);
    const read = parseImport(text);
    if (!read.ok) throw new Error(`trackMany: the export was refused: ${read.message}`);
    // As the popup's import sends it (entrypoints/popup/views/ImportFlow.tsx).
    intents = read.intents.map((i) => ({ intentId: i.intentId, muted: i.muted, ...i.seed }));
    // A file read twice, or two exports pasted into one: the same rows again.
    for (const r of spec.repeats) if (intents.length > 0) intents.push(intents[r.of % intents.length]!);
  } else {
    const texts = [...members];
    for (const r of spec.repeats)
      if (members.length > 0) texts.push(r.padded ? `  ${members[r.of % members.length]}\t` : members[r.of % members.length]!);
    texts.push(...spec.invalid);
    obs.invalid = spec.invalid.length;
    intents = texts.map((intentId) => ({ intentId }));
  }
  if (intents.length === 0) return obs;
  obs.sent = true;
  const send = () => {
    const from = ctx.now();
    let answered = false;
    void ctx.world.send({ type: 'track-many', intents }).then((reply) => {
      answered = true;
      const r = reply as { ok?: boolean; added?: number; already?: number; invalidCount?: number } | undefined;
      if (r?.ok) {
        obs.replies.push({ added: r.added ?? 0, already: r.already ?? 0, invalidCount: r.invalidCount ?? 0 });
        for (const id of obs.valid) if (!ctx.tracked.has(id)) ctx.tracked.set(id, { from, answeredAt: ctx.now() });
      } else ctx.at(ctx.time.t + 5_000, send);
    });
    ctx.at(ctx.time.t + 10_000, () => {
      if (!answered) send();
    });
  };
  ctx.at(spec.at, send);
  return obs;
}

/** T1: checks what the list did (see the module's docstring). */
export function checkTrackMany(ctx: CheckContext, obs: TrackManyObs | undefined, count: FamilyCount): string[] {
  if (!obs?.sent) return [];
  const v: string[] = [];
  const unique = obs.valid.length;
  const listed = new Map<string, number>();
  for (const r of ctx.finalList) listed.set(r.intentId, (listed.get(r.intentId) ?? 0) + 1);
  const totalAdded = obs.replies.reduce((s, r) => s + r.added, 0);
  if (obs.replies.length === 0) {
    if (ctx.deathsOrRefusals > 0) count.excused('T1', 'no reply: deaths or refusals all along');
    else v.push(`T1 the list of ${unique} was never answered`);
    return v;
  }
  for (const r of obs.replies) {
    if (r.added + r.already !== unique) v.push(`T1 a reply counted ${r.added} added + ${r.already} already of ${unique} unique ids`);
    else if (r.invalidCount !== obs.invalid) v.push(`T1 a reply counted ${r.invalidCount} invalid of ${obs.invalid}`);
    else count.ok('T1');
  }
  if (totalAdded > unique) v.push(`T1 ${totalAdded} added over ${obs.replies.length} replies for ${unique} unique ids`);
  for (const id of obs.valid) {
    const n = listed.get(id) ?? 0;
    if (n > 1) v.push(`T1 ${id} listed ${n} times`);
    else if (n === 0 && !ctx.removeAsked.has(id)) v.push(`T1 ${id} of the list lost: not tracked at the end`);
    else count.ok('T1');
  }
  // One that ended while it moved is due from when this browser tracked it (it was final already): I3 and N1 for it,
  // with exactly the stated windows about it (a 429's hold over the rest of the run, a death, its own faulted call).
  const limit = stalenessBound(ctx.tracked.size, DEFAULT_TUNING) + 1_000;
  for (const { intentId, notifiedThere } of obs.ended) {
    const told = ctx.toldAt.get(intentId)?.length ?? 0;
    const from = ctx.tracked.get(intentId)?.from;
    if (notifiedThere) {
      if (told > 0) v.push(`T1 ${intentId} ended and notified on the other browser, told ${told} times here`);
      else count.ok('T1');
    } else if (from === undefined) count.excused('T1', 'no reply: never tracked');
    else v.push(...checkToldOnce(ctx, intentId, from, limit, 'T1', count, 'ended while it moved (exported before it ended)'));
  }
  return v;
}
