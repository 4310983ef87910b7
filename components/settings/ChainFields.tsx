import { KNOWN_CHAINS } from '@/lib/chain/known-chains';
import type { ChainPreference, ChainPreferences } from '@/lib/chain/settings';
import { t } from '@/lib/i18n';

/**
 * The per-chain on-chain verification choices (options and welcome pages): a box per known chain, off by default;
 * once ticked, its RPC URL (the chain's public one unless the user puts their own) and its finality depth
 * (confirmations; the chain's default unless changed). A value equal to the default is stored as absent, so that a
 * new default applies. Presentational: the page keeps the state and saves.
 */
export function ChainFields(props: {
  preferences: ChainPreferences;
  /** Called with an update of the preferences (a state setter takes it as is: no edit is lost between renders). */
  onChange: (update: (preferences: ChainPreferences) => ChainPreferences) => void;
  /** The chains listed (default: every known chain, by name). */
  chainIds?: readonly number[];
}) {
  const ids =
    props.chainIds ??
    Object.keys(KNOWN_CHAINS)
      .map(Number)
      .sort((a, b) => KNOWN_CHAINS[a]!.name.localeCompare(KNOWN_CHAINS[b]!.name));
  const set = (id: number, patch: Partial<ChainPreference>) =>
    props.onChange((preferences) => {
      const next: ChainPreference = { ...(preferences[String(id)] ?? { enabled: false }), ...patch };
      const known = KNOWN_CHAINS[id];
      if (next.rpcUrl !== undefined && (next.rpcUrl.trim() === '' || next.rpcUrl.trim() === known?.rpcUrl)) delete next.rpcUrl;
      if (next.finalityDepth !== undefined && next.finalityDepth === known?.finalityDepth) delete next.finalityDepth;
      return { ...preferences, [String(id)]: next };
    });
  return (
    <div class="chain-list">
      {ids.map((id) => {
        const known = KNOWN_CHAINS[id];
        const pref = props.preferences[String(id)];
        const name = known?.name ?? String(id);
        return (
          <div class="chain-choice" key={id} data-chain-id={id}>
            <label class="check">
              <input
                type="checkbox"
                checked={pref?.enabled ?? false}
                onChange={(e) => set(id, { enabled: (e.target as HTMLInputElement).checked })}
              />
              {t('chainVerifyOn', name)}
            </label>
            {pref?.enabled && (
              <div class="chain-fields">
                <label for={`chain-rpc-${id}`}>{t('chainRpcUrl')}</label>
                <input
                  id={`chain-rpc-${id}`}
                  class="mono"
                  type="url"
                  spellcheck={false}
                  autocomplete="off"
                  value={pref.rpcUrl ?? known?.rpcUrl ?? ''}
                  aria-describedby="chain-rpc-hint"
                  onInput={(e) => set(id, { rpcUrl: (e.target as HTMLInputElement).value })}
                />
                <label for={`chain-depth-${id}`}>{t('chainDepth')}</label>
                <input
                  id={`chain-depth-${id}`}
                  type="number"
                  min={1}
                  max={10_000}
                  step={1}
                  value={pref.finalityDepth ?? known?.finalityDepth ?? 64}
                  onInput={(e) => {
                    const value = (e.target as HTMLInputElement).value;
                    set(id, { finalityDepth: value === '' ? Number.NaN : Number(value) });
                  }}
                />
              </div>
            )}
          </div>
        );
      })}
      <p class="hint" id="chain-rpc-hint">
        {t('chainRpcHint')}
      </p>
    </div>
  );
}
