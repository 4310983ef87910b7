/**
 * Stored shapes, versioned: every tracked-intent record and the settings are parsed with zod when the worker loads
 * them, after migrating what earlier versions wrote (`git log -p -- lib/store`):
 *
 * - **version 1** (the first release): a tracked record could be in phase `paused` (a rejected key paused each
 *   intent; now the whole tracker pauses and the intent is simply tracked), and had no `lastStates` default in some
 *   paths; settings carried `watchedCheckedAt` (Unix seconds per address), now the `watched-checked-at` key;
 * - **version 2** (now): the shapes of `./types`.
 *
 * A record missing a field a later version added gets its default; a record that still cannot be read (not an
 * object, no intentId, a field of the wrong type) is kept aside as it was — never dropped, never handed to the
 * tracker — and counted so that the popup can say so. Worker only: the popup carries no zod.
 */
import * as z from 'zod/mini';
import type { Settings, TrackedIntent } from './types';

/** The version of the stored shapes this code writes. */
export const STORE_VERSION = 2;

const num = () => z.optional(z.number());
const TrackingErrorShape = z.looseObject({ kind: z.string(), message: z.string(), at: z.number() });

/** A tracked-intent record as this version writes it. */
export const TrackedIntentShape = z.looseObject({
  intentId: z.string().check(z.minLength(1)),
  addedAt: z.number(),
  receipt: z.optional(z.looseObject({ intentId: z.string(), status: z.string() })),
  status: z.optional(z.string()),
  lastStates: z.array(z.string()),
  phase: z.enum(['tracking', 'final', 'not-found', 'expired']),
  notification: z.enum(['none', 'pending', 'shown']),
  notifiedAt: num(),
  notified: z.optional(z.looseObject({ title: z.string(), message: z.string() })),
  lastCheckedAt: num(),
  resumedAt: num(),
  lastError: z.optional(TrackingErrorShape),
  retry: z.optional(z.looseObject({ attempt: z.number(), nextAt: z.number() })),
  nextCheckAt: num(),
  lastChangeAt: num(),
  gaveUpAt: num(),
  notFoundGrace: z.optional(z.looseObject({ servedMs: z.number(), at: z.number(), life: num() })),
  seen: z.optional(z.boolean()),
  stuckNotifiedAt: num(),
  estimatedDuration: num(),
  routeDuration: num(),
  source: z.optional(z.enum(['user', 'watched', 'menu'])),
});

/**
 * What reading one stored record gives. Unreadable: `later` when the record has this version's shape but a value this
 * version does not know in one of its enumerations (`phase`, `notification`, `source`): a later version wrote it,
 * and it must be left as it is for that version.
 */
export type ReadRecord = { ok: true; record: TrackedIntent; migrated: boolean } | { ok: false; reason: string; later: boolean };

/** The fields of a record whose values are an enumeration a later version may extend. */
const ENUM_FIELDS = ['phase', 'notification', 'source'];
const FINAL = ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'INVALID'];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a stored record (stored under `key`), migrating the shapes of earlier versions. Never throws: a record that
 * cannot be read gives `{ ok: false, reason }` (the zod issue's path and message).
 */
export function readTrackedIntent(raw: unknown, key?: unknown): ReadRecord {
  if (!isObject(raw)) return { ok: false, reason: 'not an object', later: false };
  const r: Record<string, unknown> = { ...raw };
  let migrated = false;
  const fill = (field: string, value: unknown) => {
    if (r[field] !== undefined && r[field] !== null) return;
    r[field] = value;
    migrated = true;
  };
  if (typeof r.intentId !== 'string' && typeof key === 'string') fill('intentId', key);
  if (r.status === undefined && isObject(r.receipt) && typeof r.receipt.status === 'string') fill('status', r.receipt.status);
  // Version 1: `paused` after a rejected key, per intent. The tracker now pauses as a whole: track it again.
  if (r.phase === 'paused') {
    r.phase = 'tracking';
    if (isObject(r.lastError) && (r.lastError.kind === 'key-rejected' || r.lastError.kind === 'origin-rejected')) r.lastError = undefined;
    r.retry = undefined;
    migrated = true;
  }
  fill('phase', typeof r.status === 'string' && FINAL.includes(r.status) ? 'final' : 'tracking');
  fill('lastStates', []);
  // Unknown whether it was shown: a record with a notification time was; a final one without was not (it is shown
  // now, once, through the notifier's "already shown?" check).
  fill('notification', r.notifiedAt !== undefined ? 'shown' : r.phase === 'final' ? 'pending' : 'none');
  fill('addedAt', typeof r.lastCheckedAt === 'number' ? r.lastCheckedAt : 0);
  const parsed = TrackedIntentShape.safeParse(r);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const issue = issues[0];
    // Only unknown values of known enumerations: the shape is this version's, the words a later one's.
    const later = issues.every((i) => i.code === 'invalid_value' && i.path.length === 1 && ENUM_FIELDS.includes(String(i.path[0])));
    return { ok: false, reason: `${issue?.path.join('.') || 'record'}: ${issue?.message ?? 'invalid'}`, later };
  }
  return { ok: true, record: parsed.data as TrackedIntent, migrated };
}

const text = z.string();
const flag = z.boolean();
const strings = z.array(text);
const NotifyShape = z.looseObject({
  succeeded: z.boolean(),
  failed: z.boolean(),
  refunded: z.boolean(),
  stuck: z.boolean(),
  sound: z.boolean(),
  progress: z.optional(z.boolean()),
  quietHours: z.optional(z.object({ start: z.string(), end: z.string() })),
});

/**
 * Reads stored settings, migrating earlier shapes: a field of the wrong type is left out (its default applies) and
 * named in `dropped`; version 1's `watchedCheckedAt` is handed back apart (`watchedCheckedAt`) for the checkpoints
 * store. Undefined for nothing saved or something that is not an object.
 */
export function readSettings(
  raw: unknown,
): { settings: Settings; dropped: string[]; watchedCheckedAt?: Record<string, number> } | undefined {
  if (!isObject(raw)) return undefined;
  const { watchedCheckedAt, ...rest } = raw;
  const out: Record<string, unknown> = { ...rest };
  const dropped: string[] = [];
  const check = (field: string, shape: z.ZodMiniType, fallback?: unknown) => {
    if (out[field] === undefined || shape.safeParse(out[field]).success) return;
    dropped.push(field);
    if (fallback === undefined) delete out[field];
    else out[field] = fallback;
  };
  check('baseUrl', text, '');
  check('accessKey', text, '');
  if (out.baseUrl === undefined) out.baseUrl = '';
  if (out.accessKey === undefined) out.accessKey = '';
  check('watchedAddresses', strings);
  check('autoTrackAddresses', strings);
  check('autoTrackTicks', strings);
  check('notify', NotifyShape);
  check('syncSettings', flag);
  const checked = isObject(watchedCheckedAt)
    ? Object.fromEntries(Object.entries(watchedCheckedAt).filter((e): e is [string, number] => typeof e[1] === 'number'))
    : undefined;
  return { settings: out as unknown as Settings, dropped, ...(checked ? { watchedCheckedAt: checked } : {}) };
}
