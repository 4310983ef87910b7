import { useState } from 'preact/hooks';
import { ChainSelect } from '@/components/ChainSelect';
import { ErrorNotice } from '@/components/ErrorNotice';
import { RouteList } from '@/components/RouteList';
import type { LookupApi } from '@/lib/api/lookup';
import type { TokenInfo } from '@/lib/api/schemas/routes';
import { describeError, type ErrorMessage } from '@/lib/format/errors';
import { isAddress, KNOWN_TOKENS } from '@/lib/format/tokens';
import { t } from '@/lib/i18n';
import { queryKey } from '@/lib/query/query-key';
import { useLatestRequest } from '../hooks/useLatestRequest';
import { openSettings } from '../settings';

/**
 * Routes tab: which tokens can pay for an exact amount of a destination token (GetExactOutputRoutes). Only the latest
 * request's answer is shown.
 */
export function RoutesTab(props: { api: LookupApi }) {
  const [destinationChainId, setDestinationChainId] = useState(8453);
  const [tokenChoice, setTokenChoice] = useState('');
  const [pasted, setPasted] = useState('');
  const [originChainId, setOriginChainId] = useState<number | undefined>();
  const [originToken, setOriginToken] = useState('');
  const [owner, setOwner] = useState('');
  /** The tokens on screen and the key of the request they answer (the list's `data-query`). */
  const [shown, setShown] = useState<{ key: string; tokens: TokenInfo[] } | undefined>();
  const [error, setError] = useState<ErrorMessage>();
  const request = useLatestRequest();
  const loading = request.busy;
  const tokens = shown?.tokens;

  const onChain = KNOWN_TOKENS.filter((t) => t.chainId === destinationChainId);
  const destinationToken = tokenChoice === 'paste' ? pasted.trim() : tokenChoice || onChain[0]?.address || '';

  const run = () => {
    const problems = [
      !isAddress(destinationToken) && t('routesBadDestinationToken'),
      originToken.trim() && !isAddress(originToken.trim()) && t('routesBadOriginToken'),
      owner.trim() && !isAddress(owner.trim()) && t('routesBadOwner'),
    ].filter(Boolean);
    if (problems.length > 0) {
      setError({ text: t('checkTheForm', problems.join('; ')), openSettings: false });
      return;
    }
    setError(undefined);
    const query = {
      destinationChainId,
      destinationTokenAddress: destinationToken,
      ...(originChainId !== undefined ? { originChainId } : {}),
      ...(originToken.trim() ? { originTokenAddress: originToken.trim() } : {}),
      ...(owner.trim() ? { ownerAddress: owner.trim() } : {}),
    };
    void request.run({
      ask: () => props.api.getExactOutputRoutes(query),
      apply: (res) => setShown({ key: queryKey(query), tokens: res.tokens }),
      fail: (err) => {
        setError(describeError(err));
        setShown(undefined);
      },
    });
  };

  return (
    <section aria-label={t('tabRoutes')}>
      <form
        class="routes-form"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <div class="grid2">
          <ChainSelect
            label={t('receiveOn')}
            value={destinationChainId}
            onChange={(chainId) => {
              setDestinationChainId(chainId ?? 8453);
              setTokenChoice('');
            }}
          />
          <label>
            {t('tokenToReceive')}
            <select
              value={tokenChoice === 'paste' ? 'paste' : destinationToken}
              onChange={(e) => setTokenChoice((e.target as HTMLSelectElement).value)}
            >
              {onChain.map((t) => (
                <option key={t.address} value={t.address}>
                  {t.symbol}
                </option>
              ))}
              <option value="paste">{t('pasteAnAddress')}</option>
            </select>
          </label>
        </div>
        {tokenChoice === 'paste' && (
          <label>
            {t('tokenAddress')}
            <input
              type="text"
              spellcheck={false}
              placeholder="0x…"
              value={pasted}
              onInput={(e) => setPasted((e.target as HTMLInputElement).value)}
            />
          </label>
        )}
        <details>
          <summary>{t('narrowDown')}</summary>
          <ChainSelect label={t('payFromChain')} anyLabel={t('any')} value={originChainId} onChange={setOriginChainId} />
          <label>
            {t('payWithToken')}
            <input
              type="text"
              spellcheck={false}
              placeholder="0x…"
              value={originToken}
              onInput={(e) => setOriginToken((e.target as HTMLInputElement).value)}
            />
          </label>
          <label>
            {t('ownerAddress')}
            <input
              type="text"
              spellcheck={false}
              placeholder="0x…"
              value={owner}
              onInput={(e) => setOwner((e.target as HTMLInputElement).value)}
            />
          </label>
        </details>
        <button type="submit" class="wide" disabled={loading}>
          {t('findRoutes')}
        </button>
      </form>
      {error && <ErrorNotice error={error} onOpenSettings={openSettings} />}
      {loading && (
        <p class="muted" role="status">
          {t('lookingForRoutes')}
        </p>
      )}
      {!loading && tokens && tokens.length === 0 && <p class="muted">{t('noRouteFound')}</p>}
      {!loading && tokens && tokens.length > 0 && <RouteList tokens={tokens} query={shown?.key} busy={loading} />}
    </section>
  );
}
