/**
 * Token amounts: raw units (the token's smallest unit, exact integer strings) to display units
 * (raw ÷ 10^decimals), as the official client formats them: 2 to 8 fraction digits (docs/protocol.md §3). No float
 * is ever involved: viem's `formatUnits` does the exact division and
 * `Intl.NumberFormat` rounds the decimal string.
 */
import { formatUnits } from 'viem';
import { localized, t } from '../i18n';

// Grouping and decimal signs follow the browser's language (1,234.50 in English, 1.234,50 in Spanish).
const displayFormat = localized(
  (locale) =>
    new Intl.NumberFormat(locale, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 8,
      roundingMode: 'halfExpand',
    } as Intl.NumberFormatOptions),
);
const plainNumber = localized((locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }));
const percent = localized((locale) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 4 }));

/** A plain number (counts, seconds, minutes) in the browser's language, e.g. 1234 → "1,234". */
export function formatNumber(n: number): string {
  return plainNumber().format(n);
}

/** A percentage given in percent as the service sends it (e.g. `0.25` → "0.25%"), in the browser's language. */
export function formatPercent(valueInPercent: number): string {
  return percent().format(valueInPercent / 100);
}

/** Largest `decimals` accepted (uint256 has at most 78 digits). */
const MAX_DECIMALS = 77;

/**
 * Formats a raw amount for display, e.g. ("250000000", 6) → "250.00", ("7845000000000000000", 18) → "7.845".
 * Returns undefined when the amount is not a non-negative base-10 integer or `decimals` is missing or out of
 * 0..77, so the caller can show "unknown amount" instead of a wrong number.
 */
export function formatTokenAmount(raw: string | null | undefined, decimals: number | null | undefined): string | undefined {
  if (raw === null || raw === undefined || !/^\d{1,90}$/.test(raw)) return undefined;
  if (decimals === null || decimals === undefined || !Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    return undefined;
  }
  const exact = formatUnits(BigInt(raw), decimals);
  // Intl.NumberFormat formats decimal strings exactly (no float conversion).
  return displayFormat().format(exact as unknown as number);
}

/** Formats a raw amount with its symbol ("250.00 USDC"); "unknown amount" when it cannot be formatted. */
export function formatTokenAmountWithSymbol(
  raw: string | null | undefined,
  decimals: number | null | undefined,
  symbol: string | null | undefined,
): string {
  const value = formatTokenAmount(raw, decimals);
  if (value === undefined) return t('unknownAmount');
  return symbol ? `${value} ${symbol}` : value;
}
