import { t } from '@/lib/i18n';
import {
  ChainsGroup,
  ConnectionGroup,
  NotificationsGroup,
  PermissionsSection,
  QuietHoursGroup,
  ShortcutsGroup,
  SyncGroup,
  WatchedAddressesGroup,
} from './groups';
import { useSettingsForm } from './useSettingsForm';

/**
 * Options page, in groups: Connection · Notifications · Quiet hours · Watched addresses · On-chain verification · Sync ·
 * Shortcuts, one Save for all, then what each permission is for. Saving asks the browser, from the click itself and in
 * one prompt, for access to the service origin and to the RPC origin of each chain verified on-chain (optional host
 * permissions). The state lives in {@link useSettingsForm}; each group is its own component.
 */
export function Options() {
  const form = useSettingsForm();
  return (
    <main class="options">
      <h1>{t('optionsTitle')}</h1>
      <p>
        <a href={browser.runtime.getURL('/welcome.html')} target="_blank" rel="noopener">
          {t('gettingStarted')}
        </a>
      </p>
      {form.loadProblem && (
        <p class="result result-bad" role="alert" data-testid="load-status">
          {form.loadProblem}{' '}
          <button type="button" onClick={form.readAgain}>
            {t('readAgain')}
          </button>
        </p>
      )}
      <form onSubmit={form.save} aria-busy={!form.loaded}>
        <fieldset class="form-body" disabled={!form.loaded}>
          <ConnectionGroup form={form} />
          <NotificationsGroup form={form} />
          <QuietHoursGroup form={form} />
          <WatchedAddressesGroup form={form} />
          <ChainsGroup form={form} />
          <SyncGroup form={form} />
          <div class="actions">
            <button type="submit">{t('save')}</button>
          </div>
        </fieldset>
      </form>
      {form.saveStatus && (
        <p class={`result ${form.saveStatus.ok ? 'result-ok' : 'result-bad'}`} role="status" data-testid="save-status">
          {form.saveStatus.text}
        </p>
      )}
      {form.chainStatus && (
        <p class={`result ${form.chainStatus.ok ? 'result-ok' : 'result-bad'}`} role="status" data-testid="chain-status">
          {form.chainStatus.text}
        </p>
      )}
      {form.syncStatus && (
        <p class="result result-bad" role="status" data-testid="sync-status">
          {form.syncStatus}
        </p>
      )}
      <ShortcutsGroup />
      <PermissionsSection />
    </main>
  );
}
