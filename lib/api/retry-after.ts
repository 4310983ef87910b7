/**
 * The service's `Retry-After` (RFC 9110 §10.2.3; docs/protocol.md §2) and the scope its holds apply to in the
 * request budget (`./budget`). Pure.
 */
import { MAX_HOLD_MS, retryAfterDeltaSeconds } from './budget';

/** The longest `Retry-After` kept (s): {@link MAX_HOLD_MS}. */
export const MAX_RETRY_AFTER_S = MAX_HOLD_MS / 1000;

/**
 * Reads `Retry-After` (RFC 9110 §10.2.3) as whole seconds, at most {@link MAX_RETRY_AFTER_S} (a day's hold is cut to
 * an hour); a delta that is a whole multiple of 1,000 is read as milliseconds sent by mistake
 * (`retryAfterDeltaSeconds` in ./budget); undefined when absent or unreadable. An HTTP-date is read against
 * `serviceNowMs`, the service's time (ms since the epoch): the answer's own `Date` header when readable, else the
 * worker's estimate — never the user's clock alone, which may be minutes off.
 */
export function parseRetryAfter(value: string | null, serviceNowMs: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(retryAfterDeltaSeconds(Number(trimmed)), MAX_RETRY_AFTER_S);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.min(MAX_RETRY_AFTER_S, Math.max(0, Math.ceil((at - serviceNowMs) / 1000)));
}

/**
 * The scope of a service's `Retry-After` holds in the budget: its origin and a fingerprint of the access key (FNV-1a,
 * not the key). Two clients of the same service and key share their holds; another origin or key is not held.
 */
export function holdScopeOf(baseUrl: string, accessKey: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < accessKey.length; i++) h = Math.imul(h ^ accessKey.charCodeAt(i), 0x01000193);
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    origin = baseUrl;
  }
  return `${origin} ${(h >>> 0).toString(16)}`;
}
