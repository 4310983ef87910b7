/**
 * Reading an intentId typed, pasted or copied by the user. The service only says "string"; the service's ids
 * are 0x-prefixed 32-byte hex strings, and other id-like tokens are accepted too so that a differently shaped id is
 * never refused outright.
 */
import { t } from '../i18n';

/** 0x + 64 hex digits: the usual intentId form (and, identically shaped, a transaction hash). */
const HEX_ID = /0x[0-9a-fA-F]{64}(?![0-9a-fA-F])/;
/** Any other id-like token: 8 to 128 letters, digits, `_` or `-`. */
const TOKEN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{7,127}$/;

/** Result of reading an intentId: the normalized id, or a message saying what is wrong. */
export type IntentIdResult = { ok: true; intentId: string } | { ok: false; message: string };

/**
 * Validates what the user entered as an intentId. Hex ids are lower-cased; surrounding white space is dropped.
 * Never throws.
 */
export function parseIntentId(input: string): IntentIdResult {
  const text = input.trim();
  if (text === '') return { ok: false, message: t('intentIdEmpty') };
  if (text.length > 200) return { ok: false, message: t('intentIdTooLong') };
  if (/^0x/i.test(text)) {
    if (/^0x[0-9a-fA-F]{64}$/.test(text)) return { ok: true, intentId: text.toLowerCase() };
    return { ok: false, message: t('intentIdBadHexLength') };
  }
  if (/\s/.test(text)) return { ok: false, message: t('intentIdHasSpaces') };
  if (TOKEN_ID.test(text)) return { ok: true, intentId: text };
  return { ok: false, message: t('intentIdBadCharacters') };
}

/**
 * Finds an intentId in free text such as the clipboard: the first 0x + 64 hex run anywhere in it, or the whole
 * trimmed text when that is a valid id by itself. Undefined when there is none.
 */
export function findIntentId(text: string): string | undefined {
  if (text.length > 100_000) return undefined;
  const hex = HEX_ID.exec(text);
  if (hex) return hex[0].toLowerCase();
  const whole = parseIntentId(text);
  return whole.ok ? whole.intentId : undefined;
}
