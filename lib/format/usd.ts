/**
 * USD figures as the official client shows them (docs/protocol.md §3): 2 decimals, or "<$0.01" for a positive amount below a
 * cent. Accepts numbers and numeric strings (the service sends both); anything else gives undefined.
 */
import { localized } from '../i18n';

// Dollars in the browser's language: "$1,234.50" in English, "1234,50 US$" in Spanish.
const usd = localized(
  (locale) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }),
);

/** "$1,234.50", "<$0.01", "$0.00"; undefined when `value` is absent or not a finite number. */
export function formatUsd(value: number | string | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return undefined;
  if (n > 0 && n < 0.01) return `<${usd().format(0.01)}`;
  return usd().format(n);
}

/**
 * USD value of a raw amount at `priceUsd` per display unit, formatted; undefined when anything is missing.
 * (A display figure: the float here never feeds back into a raw amount.)
 */
export function usdOfRaw(
  raw: string | null | undefined,
  decimals: number | null | undefined,
  priceUsd: number | null | undefined,
): string | undefined {
  if (!raw || !/^\d+$/.test(raw) || decimals === null || decimals === undefined || priceUsd === null || priceUsd === undefined)
    return undefined;
  const value = Number(raw) / 10 ** decimals;
  return Number.isFinite(value) ? formatUsd(value * priceUsd) : undefined;
}

/**
 * USD values of a receipt's origin and destination amounts at `prices` (USD per display unit, from GetTokenPrices),
 * formatted; each undefined when its amount, decimals or price is missing.
 */
export function receiptUsd(
  summary:
    | {
        originTokenAmount?: string | null;
        destinationTokenAmount?: string | null;
        originTokenMetadata?: { decimals?: number | null } | null;
        destinationTokenMetadata?: { decimals?: number | null } | null;
      }
    | null
    | undefined,
  prices: { origin?: number; destination?: number } | undefined,
): { origin?: string; destination?: string } {
  const origin = usdOfRaw(summary?.originTokenAmount, summary?.originTokenMetadata?.decimals, prices?.origin);
  const destination = usdOfRaw(summary?.destinationTokenAmount, summary?.destinationTokenMetadata?.decimals, prices?.destination);
  return { ...(origin ? { origin } : {}), ...(destination ? { destination } : {}) };
}
