/**
 * Validation of the service base URL typed in the options page. HTTPS is required, except for a service on this
 * machine (localhost, 127.0.0.1, [::1]) such as the simulator.
 */
import { t } from '../i18n';

/** A validated base URL: `baseUrl` without trailing slash, its `origin`, and the host-permission pattern for it. */
export type BaseUrlResult = { ok: true; baseUrl: string; origin: string; permissionPattern: string } | { ok: false; message: string };

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for a host on this machine (where plain http is allowed). */
export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname);
}

/** Checks a base URL; never throws. Query strings, fragments and embedded credentials are refused. */
export function parseBaseUrl(input: string): BaseUrlResult {
  const text = input.trim();
  if (text === '') return { ok: false, message: t('urlEmpty') };
  if (text.length > 2048) return { ok: false, message: t('urlTooLong') };
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    return { ok: false, message: t('urlNoScheme') };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: t('urlInvalid') };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: t('urlHttpsOnly') };
  }
  if (url.protocol === 'http:' && !isLocalHost(url.hostname)) {
    return { ok: false, message: t('urlPlainHttpNotLocal') };
  }
  if (url.username || url.password) return { ok: false, message: t('urlHasCredentials') };
  if (url.search || url.hash) return { ok: false, message: t('urlHasQueryOrFragment') };
  const baseUrl = `${url.origin}${url.pathname}`.replace(/\/+$/, '').replace(/\/rpc\/Svc$/, '');
  return { ok: true, baseUrl, origin: url.origin, permissionPattern: `${url.protocol}//${url.hostname}/*` };
}

/** Checks an access key: not empty, no white space, only visible ASCII (fetch cannot send other characters in a header), at most 512 characters. */
export function parseAccessKey(input: string): { ok: true; accessKey: string } | { ok: false; message: string } {
  const key = input.trim();
  if (key === '') return { ok: false, message: t('accessKeyEmpty') };
  if (/\s/.test(key)) return { ok: false, message: t('accessKeyHasSpaces') };
  // A header value outside visible ASCII (a zero-width space, a soft hyphen, a look-alike letter) makes fetch refuse
  // the request before it is sent: Test connection would say that nothing answered.
  if (/[^\x21-\x7e]/.test(key)) return { ok: false, message: t('accessKeyNotAscii') };
  if (key.length > 512) return { ok: false, message: t('accessKeyTooLong') };
  return { ok: true, accessKey: key };
}
