/**
 * Field types shared by every schema, tolerant of how the deployed service differs from the specification
 * (docs/protocol.md, "Values"): absent fields may be `null`, amounts may be strings or numbers, and status names may
 * be any string.
 */
import * as z from 'zod/mini';
import type { IntentStatus, TransactionStatus } from '../status';

/** An optional field: absent, `null` or the given type. */
export const opt = <T extends z.ZodMiniType>(s: T) => z.nullish(s);

/** An IntentStatus: any string, typed with the known names. */
export const intentStatus = z.string() as unknown as z.ZodMiniType<IntentStatus>;
/** A TransactionStatus: any string, typed with the known names. */
export const transactionStatus = z.string() as unknown as z.ZodMiniType<TransactionStatus>;

/**
 * A raw token amount in the token's smallest unit, as an exact base-10 integer string ("7845000000000000000").
 * Accepts a string, a JSON number or a bigint (the client's lossless JSON parser hands integers above 2^53 over as
 * strings). Non-integer or non-numeric strings are kept as they are; formatting shows them as unknown rather than
 * guessing.
 */
export const RawAmount = z.pipe(
  z.union([z.string(), z.number(), z.bigint()]),
  z.transform((v: string | number | bigint) =>
    typeof v === 'number' ? (Number.isInteger(v) ? BigInt(v).toString() : String(v)) : String(v),
  ),
);
/** Exact decimal string of a raw amount (smallest token unit). See {@link RawAmount}. */
export type RawAmount = z.output<typeof RawAmount>;

/**
 * A field the specification types as `number` (ids, chainIds, deadlines, nonces, USD values), as a JS number. The
 * client's lossless JSON parser hands an integer above 2^53 over as its exact decimal string (2^256−1 is the usual
 * "no deadline" of `deadline` and `permitDeadline`); it is read here as the nearest JS number instead of rejecting the
 * whole answer; any other string is refused. Only raw amounts ({@link RawAmount}) are kept exact.
 */
export const SvcNumber = z.union([
  z.number(),
  // An integer's decimal string as the nearest number; any other string becomes NaN, which z.number() refuses.
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((s: string) => (/^-?\d+$/.test(s) ? Number(s) : Number.NaN)),
    ),
    z.number(),
  ),
]);
