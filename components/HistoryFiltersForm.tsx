import { useState } from 'preact/hooks';
import { INTENT_STATUSES } from '@/lib/api/status';
import { CHAINS } from '@/lib/format/chains';
import { statusLabel } from '@/lib/format/intent';
import { KNOWN_TOKENS } from '@/lib/format/tokens';
import { t } from '@/lib/i18n';
import type { HistoryFilters, TimeRange } from '@/lib/query/history-filters';
import { ChainSelect } from './ChainSelect';

/**
 * The History filters: statuses (several at once), origin and destination chain, origin token, owner address (with
 * the watched addresses as quick picks), and a time range. Calls `onChange` with the whole new filter set.
 *
 * The owner address applies on Enter or when the field is left. What is typed until then is the form's own draft, so
 * that a re-render (the popup's clock ticks every second while an intent is in flight, a page of history arrives)
 * does not put the applied value back into the field under the user's fingers; once applied (or picked, or cleared)
 * the field shows the applied value again. A quick pick shows as pressed only while the field shows that address.
 */
export function HistoryFiltersForm(props: { filters: HistoryFilters; myAddresses: string[]; onChange: (f: HistoryFilters) => void }) {
  const f = props.filters;
  /** What is typed and not applied yet; null: the field shows the applied owner. */
  const [ownerDraft, setOwnerDraft] = useState<string | null>(null);
  const apply = (next: HistoryFilters) => {
    setOwnerDraft(null);
    props.onChange(next);
  };
  const set = (patch: Partial<HistoryFilters>) => apply({ ...f, ...patch });
  return (
    <details class="filters" open={f.statuses.length > 0 || f.range !== 'any'}>
      <summary>{t('filters')}</summary>
      <fieldset class="status-set">
        <legend>{t('status')}</legend>
        {INTENT_STATUSES.map((s) => (
          <label key={s} class="check">
            <input
              type="checkbox"
              checked={f.statuses.includes(s)}
              onChange={(e) =>
                set({ statuses: (e.target as HTMLInputElement).checked ? [...f.statuses, s] : f.statuses.filter((x) => x !== s) })
              }
            />
            {statusLabel(s)}
          </label>
        ))}
      </fieldset>
      <div class="grid2">
        <ChainSelect
          label={t('fromChain')}
          anyLabel={t('any')}
          value={f.originChainId}
          onChange={(originChainId) => set({ originChainId })}
        />
        <ChainSelect
          label={t('toChain')}
          anyLabel={t('any')}
          value={f.destinationChainId}
          onChange={(destinationChainId) => set({ destinationChainId })}
        />
        <label>
          {t('tokenSent')}
          <select value={f.tokenAddress ?? ''} onChange={(e) => set({ tokenAddress: (e.target as HTMLSelectElement).value || undefined })}>
            <option value="">{t('any')}</option>
            {KNOWN_TOKENS.filter((t) => f.originChainId === undefined || t.chainId === f.originChainId).map((t) => (
              <option key={`${t.chainId}:${t.address}`} value={t.address}>
                {t.symbol} ({CHAINS[t.chainId]?.name ?? t.chainId})
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('when')}
          <select value={f.range} onChange={(e) => set({ range: (e.target as HTMLSelectElement).value as TimeRange })}>
            <option value="any">{t('anyTime')}</option>
            <option value="today">{t('today')}</option>
            <option value="7d">{t('last7Days')}</option>
            <option value="30d">{t('last30Days')}</option>
            <option value="custom">{t('customRange')}</option>
          </select>
        </label>
      </div>
      {f.range === 'custom' && (
        <div class="grid2">
          <label>
            {t('fromDate')}
            <input type="date" value={f.from ?? ''} onChange={(e) => set({ from: (e.target as HTMLInputElement).value || undefined })} />
          </label>
          <label>
            {t('toDate')}
            <input type="date" value={f.to ?? ''} onChange={(e) => set({ to: (e.target as HTMLInputElement).value || undefined })} />
          </label>
        </div>
      )}
      <label>
        {t('ownerAddress')}
        <input
          type="text"
          placeholder="0x…"
          spellcheck={false}
          value={ownerDraft ?? f.ownerAddress ?? ''}
          onInput={(e) => setOwnerDraft((e.target as HTMLInputElement).value)}
          onChange={(e) => set({ ownerAddress: (e.target as HTMLInputElement).value.trim() || undefined })}
        />
      </label>
      {props.myAddresses.length > 0 && (
        <fieldset class="quick" aria-label={t('myAddresses')}>
          <span class="muted">{t('myAddressesColon')}</span>
          {props.myAddresses.map((a) => (
            <button
              type="button"
              key={a}
              class="small secondary"
              aria-pressed={ownerDraft === null && f.ownerAddress?.toLowerCase() === a.toLowerCase()}
              onClick={() => set({ ownerAddress: a })}
            >
              {`${a.slice(0, 6)}…${a.slice(-4)}`}
            </button>
          ))}
        </fieldset>
      )}
      <button type="button" class="link-button" onClick={() => apply({ statuses: [], range: 'any' })}>
        {t('clearFilters')}
      </button>
    </details>
  );
}
