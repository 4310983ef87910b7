import type { TokenInfo } from '@/lib/api/schemas/routes';
import { chainName } from '@/lib/format/chains';

/** Only https logos are shown; anything else (http, data:, javascript:) is dropped. */
export function safeLogo(uri: string | null | undefined): string | undefined {
  if (!uri) return undefined;
  try {
    return new URL(uri).protocol === 'https:' ? uri : undefined;
  } catch {
    return undefined;
  }
}

/** GetExactOutputRoutes results: tokens one can pay with, in the order given (featured first), with logo. */
export function RouteList(props: { tokens: TokenInfo[] }) {
  return (
    <ul class="route-list" aria-label="Tokens you can pay with">
      {props.tokens.map((t) => {
        const logo = safeLogo(t.logoUri);
        return (
          <li key={`${t.chainId}:${t.address}`} class="route" data-symbol={t.symbol} data-featured={t.featured ? 'yes' : 'no'}>
            {logo ? (
              <img
                src={logo}
                alt=""
                width={20}
                height={20}
                referrerpolicy="no-referrer"
                loading="lazy"
                onError={(e) => {
                  (e.currentTarget as HTMLImageElement).style.visibility = 'hidden';
                }}
              />
            ) : (
              <span class="logo-blank" aria-hidden="true" />
            )}
            <span class="route-name">
              <strong>{t.symbol}</strong> <span class="muted">{t.name}</span>
            </span>
            <span class="route-chain">{chainName(t.chainId)}</span>
            {t.featured ? <span class="chip chip-busy">Popular</span> : <span />}
          </li>
        );
      })}
    </ul>
  );
}
