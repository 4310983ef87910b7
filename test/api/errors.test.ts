/**
 * The typed errors of the Svc client: the messages a person reads (they reach the options page's connection test
 * and the logs), the predicates the client and UI switch on (codes of deployed-wire-notes.md "Errors"), `redact`.
 */
import { describe, expect, it } from 'vitest';
import {
  isKeyRejected,
  isNotFound,
  isOriginRejected,
  isRateLimited,
  redact,
  SvcAbortedError,
  SvcBadBodyError,
  SvcNetworkError,
  SvcServiceError,
  SvcTimeoutError,
  SvcValidationError,
} from '@/lib/api/errors';

const service = (code: number, httpStatus: number, msg = 'text') =>
  new SvcServiceError('GetIntentReceipt', { errorName: 'Name', code, msg, httpStatus });

describe('messages a person can act on', () => {
  it('a service error says its name and code, and still says something when the service sent no msg', () => {
    const withMsg = service(2000, 400, 'intentId is required');
    expect(withMsg.message).toContain('Name');
    expect(withMsg.message).toContain('2000');
    expect(withMsg.message).toContain('intentId is required');
    const empty = service(2000, 400, '');
    expect(empty.message).toMatch(/2000\)?: \S/);
  });

  it('a network error names the URL it could not reach and why', () => {
    const err = new SvcNetworkError('GetIntentReceipt', 'https://svc.example/rpc/Svc/GetIntentReceipt', 'ECONNREFUSED');
    expect(err.message).toContain('https://svc.example/rpc/Svc/GetIntentReceipt');
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.operation).toBe('GetIntentReceipt');
  });

  it('a time-out names the operation and gives the limit in seconds (timeoutMs is milliseconds)', () => {
    const err = new SvcTimeoutError('WaitIntentReceipt', 10_000);
    expect(err.message).toContain('WaitIntentReceipt');
    expect(err.message).toMatch(/\b10 s\b/);
    expect(err.timeoutMs).toBe(10_000);
  });

  it('a cancelled call names the operation', () => {
    expect(new SvcAbortedError('GetIntentHistory').message).toContain('GetIntentHistory');
  });

  it('a non-JSON body says it does not look like the service; a body too large does not say so', () => {
    const html = new SvcBadBodyError('GetIntentReceipt', 404, 'an HTML page', '<html>');
    expect(html.message).toContain('404');
    expect(html.message).toContain('an HTML page');
    expect(html.message).toMatch(/not look like the Svc service/);
    const big = 'a body of 5.0 MB, more than the 4 MB accepted';
    const large = new SvcBadBodyError('GetIntentHistory', 200, big, '{');
    expect(large.message.endsWith(big)).toBe(true);
    expect(large.message).not.toMatch(/Svc service/);
  });

  it('a refused request says it was not sent and names the field without the `request.` prefix', () => {
    const err = new SvcValidationError('SearchIntents', 'request.byProjectId', 'expected a number');
    expect(err.message).toMatch(/not sent/);
    expect(err.message).toContain('byProjectId');
    expect(err.message).not.toContain('request.');
    expect(err.message).toContain('expected a number');
  });

  it('a malformed answer names the field, or the body as a whole when the path is empty', () => {
    const field = new SvcValidationError('GetIntentReceipt', 'intentReceipt.status', 'unknown status');
    expect(field.message).not.toMatch(/not sent/);
    expect(field.message).toContain('intentReceipt.status');
    expect(field.message).toContain('unknown status');
    const whole = new SvcValidationError('GetIntentReceipt', '', 'not an object');
    expect(whole.message).toMatch(/at \(body\): not an object$/);
    expect(new SvcValidationError('GetIntentReceipt', 'a.request.b', 'x').message).not.toMatch(/not sent/);
  });
});

describe('predicates', () => {
  it('only 1103 from the service is an origin refusal; anything thrown may be asked', () => {
    expect(isOriginRejected(service(1103, 403))).toBe(true);
    expect(isOriginRejected(service(1101, 401))).toBe(false);
    expect(isOriginRejected({ code: 1103 })).toBe(false);
    for (const thrown of [undefined, null, 'text', 1103]) expect(isOriginRejected(thrown)).toBe(false);
  });

  it('rate limiting: HTTP 429 whatever the code, or 1007, 1200, 1201 whatever the status', () => {
    expect(isRateLimited(service(-1, 429))).toBe(true);
    expect(isRateLimited(service(1007, 400))).toBe(true);
    expect(isRateLimited(service(1200, 400))).toBe(true);
    expect(isRateLimited(service(1201, 400))).toBe(true);
    expect(isRateLimited(service(8000, 400))).toBe(false);
    expect(isRateLimited(service(1101, 401))).toBe(false);
    expect(isRateLimited({ httpStatus: 429, code: 1007 })).toBe(false);
    expect(isRateLimited(new SvcTimeoutError('GetIntentReceipt', 1000))).toBe(false);
    expect(isRateLimited(undefined)).toBe(false);
  });

  it('key refusal and NotFound are service errors only', () => {
    expect(isKeyRejected(service(1000, 401))).toBe(true);
    expect(isKeyRejected(service(1103, 403))).toBe(false);
    expect(isNotFound(service(8000, 400))).toBe(true);
    expect(isNotFound({ code: 8000 })).toBe(false);
  });
});

describe('redact', () => {
  it('replaces every occurrence of the secret', () => {
    expect(redact('key=abc&again=abc', 'abc')).toBe('key=[redacted]&again=[redacted]');
  });
  it('leaves the text as it is for an empty or absent secret', () => {
    expect(redact('plain text', '')).toBe('plain text');
    expect(redact('plain text', undefined)).toBe('plain text');
  });
});
