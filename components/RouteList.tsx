import type { TokenInfo } from '@/lib/api/schemas/routes';
import { chainName } from '@/lib/format/chains';
import { t } from '@/lib/i18n';

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
export function RouteList(props: {
  tokens: TokenInfo[];
  /** The key of the query the tokens answer (`data-query`), and whether a request for the list is in flight. */
  query?: string;
  busy?: boolean;
}) {
  return (
    <ul class="route-list" aria-label={t('tokensYouCanPayWith')} data-query={props.query} aria-busy={props.busy}>
      {props.tokens.map((token) => {
        const logo = safeLogo(token.logoUri);
        return (
          <li
            key={`${token.chainId}:${token.address}`}
            class="route"
            data-symbol={token.symbol}
            data-featured={token.featured ? 'yes' : 'no'}
          >
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
              <strong>{token.symbol}</strong> <span class="muted">{token.name}</span>
            </span>
            <span class="route-chain">{chainName(token.chainId)}</span>
            {token.featured ? <span class="chip chip-busy">{t('popular')}</span> : <span />}
          </li>
        );
      })}
    </ul>
  );
}
