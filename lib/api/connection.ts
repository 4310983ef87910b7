/**
 * "Test connection" of the options page: one harmless call that tells whether the base URL answers as the Svc
 * service and whether the access key is accepted (error codes: docs/protocol.md §2).
 */

import { t } from '../i18n';
import { isKeyRejected, isNotFound, isOriginRejected, SvcApiError, SvcServiceError } from './errors';
import type { SvcReadClient } from './read-client';

/** Outcome of a connection test; `message` is the sentence shown to the user. */
export type ConnectionResult =
  | { kind: 'ok'; message: string }
  | { kind: 'unreachable'; message: string }
  | { kind: 'not-service'; message: string }
  | { kind: 'key-rejected'; message: string }
  | { kind: 'origin-rejected'; message: string }
  | { kind: 'service-error'; message: string };

/** intentId used as the probe: well-formed, and never a real intent. */
export const PROBE_INTENT_ID = `0x${'0'.repeat(64)}`;

/**
 * Probes the service with GetIntentReceipt for an intent that does not exist. NotFound (8000) means the
 * service answered and accepted the key. Never throws; time-out is `timeoutMs` milliseconds (default 10 000).
 */
export async function testConnection(client: SvcReadClient, timeoutMs = 10_000): Promise<ConnectionResult> {
  try {
    await client.getIntentReceipt({ intentId: PROBE_INTENT_ID }, { timeoutMs });
    return { kind: 'ok', message: t('connOk') };
  } catch (err) {
    return classifyConnectionError(err, client.baseUrl);
  }
}

/** Maps an error from the probe call to the result shown to the user. */
export function classifyConnectionError(err: unknown, baseUrl: string): ConnectionResult {
  if (isNotFound(err)) return { kind: 'ok', message: t('connOk') };
  if (isKeyRejected(err)) {
    return {
      kind: 'key-rejected',
      message: t('connKeyRejected', err.errorName, err.code),
    };
  }
  if (isOriginRejected(err)) {
    return {
      kind: 'origin-rejected',
      message: t('connOriginRejected'),
    };
  }
  if (err instanceof SvcServiceError) {
    if (err.code === -2 || err.code === -3) {
      return {
        kind: 'not-service',
        message: t('connNoService', baseUrl, err.errorName),
      };
    }
    return { kind: 'service-error', message: t('connServiceError', err.message) };
  }
  if (err instanceof SvcApiError) {
    switch (err.kind) {
      case 'network':
        return { kind: 'unreachable', message: t('connNothingAnswered', baseUrl) };
      case 'timeout':
        return { kind: 'unreachable', message: t('connTimeout', baseUrl) };
      case 'bad-body':
      case 'validation':
        return { kind: 'not-service', message: t('connNotService', baseUrl, err.message) };
      default:
        return { kind: 'service-error', message: err.message };
    }
  }
  return { kind: 'service-error', message: t('connUnexpected', err instanceof Error ? err.message : String(err)) };
}
