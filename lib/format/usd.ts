/**
 * USD figures as the official client shows them (docs/protocol.md §3): 2 decimals, or "<$0.01" for a positive amount below a
 * cent. Accepts numbers and numeric strings (the service sends both); anything else gives undefined.
 */
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "$1,234.50", "<$0.01", "$0.00"; undefined when `value` is absent or not a finite number. */
export function formatUsd(value: number | string | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return undefined;
  if (n > 0 && n < 0.01) return '<$0.01';
  return usd.format(n);
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
