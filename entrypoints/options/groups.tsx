/**
 * The options page's groups, one component each: Connection · Notifications · Quiet hours · Watched addresses · Sync ·
 * Shortcuts, then what each permission is for. Every group says in one line why it is there; every field has an
 * example.
 */
import type { ComponentChildren } from 'preact';
import { ChainFields } from '@/components/settings/ChainFields';
import { ConnectionFields } from '@/components/settings/ConnectionFields';
import { ShortcutList } from '@/components/settings/Shortcuts';
import { useConnectionTest } from '@/components/settings/save';
import { type MessageKey, t } from '@/lib/i18n';
import { PERMISSION_USES } from '@/lib/permissions';
import type { SettingsForm } from './useSettingsForm';

/** One group: a titled fieldset with its one-line why. */
function Group(props: { id: string; titleKey: MessageKey; whyKey: MessageKey; children: ComponentChildren }) {
  return (
    <fieldset class="group" data-group={props.id} aria-describedby={`${props.id}-why`}>
      <legend>{t(props.titleKey)}</legend>
      <p class="why" id={`${props.id}-why`}>
        {t(props.whyKey)}
      </p>
      {props.children}
    </fieldset>
  );
}

/** Connection: the service URL and the access key, with Test connection (the welcome page's own fields). */
export function ConnectionGroup({ form }: { form: SettingsForm }) {
  const connection = useConnectionTest();
  return (
    <Group id="connection" titleKey="groupConnection" whyKey="groupConnectionWhy">
      <ConnectionFields
        baseUrl={form.baseUrl}
        accessKey={form.accessKey}
        onBaseUrl={form.setBaseUrl}
        onAccessKey={form.setAccessKey}
        onTest={() => void connection.run(form.baseUrl, form.accessKey)}
        testing={connection.testing}
        testStatus={connection.status}
      />
    </Group>
  );
}

const NOTIFY_CHOICES = [
  ['succeeded', 'notifyWhenSucceeds'],
  ['failed', 'notifyWhenFails'],
  ['refunded', 'notifyWhenRefunded'],
  ['stuck', 'notifyWhenStuck'],
  ['sound', 'notifySound'],
  ['progress', 'notifyProgress'],
] as const;

/** Notifications: which endings (and progress) reach the desktop, and whether with a sound. */
export function NotificationsGroup({ form }: { form: SettingsForm }) {
  return (
    <Group id="notifications" titleKey="groupNotifications" whyKey="groupNotificationsWhy">
      {NOTIFY_CHOICES.map(([key, label]) => (
        <label class="check" key={key}>
          <input
            type="checkbox"
            checked={form.notify[key] ?? false}
            onChange={(e) => form.setNotify({ ...form.notify, [key]: (e.target as HTMLInputElement).checked })}
          />
          {t(label)}
        </label>
      ))}
      <p class="hint">{t('notifyExample')}</p>
    </Group>
  );
}

/** Quiet hours: hold notifications between two local times. */
export function QuietHoursGroup({ form }: { form: SettingsForm }) {
  const { quiet, setQuiet } = form;
  return (
    <Group id="quiet-hours" titleKey="quietHours" whyKey="groupQuietHoursWhy">
      <label class="check">
        <input type="checkbox" checked={quiet.on} onChange={(e) => setQuiet({ ...quiet, on: (e.target as HTMLInputElement).checked })} />
        {t('quietHoursOn')}
      </label>
      {quiet.on && (
        <div class="quiet-hours">
          <label for="quiet-start">{t('quietFrom')}</label>
          <input
            id="quiet-start"
            type="time"
            value={quiet.start}
            onInput={(e) => setQuiet({ ...quiet, start: (e.target as HTMLInputElement).value })}
          />
          <label for="quiet-end">{t('quietTo')}</label>
          <input
            id="quiet-end"
            type="time"
            value={quiet.end}
            onInput={(e) => setQuiet({ ...quiet, end: (e.target as HTMLInputElement).value })}
          />
        </div>
      )}
      <p class="hint">{t('quietExample')}</p>
      <p class="hint">{t('quietHoursHint')}</p>
    </Group>
  );
}

/** Watched addresses: the user's wallets, and which of them have new intents tracked by themselves. */
export function WatchedAddressesGroup({ form }: { form: SettingsForm }) {
  return (
    <Group id="watched" titleKey="groupWatched" whyKey="groupWatchedWhy">
      <div class="field">
        <label for="my-addresses">{t('myAddressesOptional')}</label>
        <textarea
          id="my-addresses"
          rows={3}
          spellcheck={false}
          placeholder={t('addressesPlaceholder')}
          value={form.addresses}
          aria-describedby="my-addresses-example"
          onInput={(e) => form.setAddresses((e.target as HTMLTextAreaElement).value)}
        />
        <p class="hint" id="my-addresses-example">
          {t('watchedExample')}
        </p>
        <p class="hint">{t('addressesHint')}</p>
        {form.parsedAddresses.length > 0 && (
          <fieldset class="plain">
            <legend>{t('autoTrackLegend')}</legend>
            {form.parsedAddresses.map((a) => (
              <label class="check" key={a}>
                <input
                  type="checkbox"
                  checked={form.autoTrack.includes(a)}
                  onChange={(e) =>
                    form.setAutoTrack(
                      (e.target as HTMLInputElement).checked ? [...form.autoTrack, a] : form.autoTrack.filter((x) => x !== a),
                    )
                  }
                />
                <span class="mono">{a}</span>
              </label>
            ))}
          </fieldset>
        )}
      </div>
    </Group>
  );
}

/** On-chain verification: per chain, off by default; its RPC URL and finality depth once on. */
export function ChainsGroup({ form }: { form: SettingsForm }) {
  return (
    <Group id="chains" titleKey="groupChains" whyKey="groupChainsWhy">
      <ChainFields preferences={form.chainPreferences} onChange={form.setChainPreferences} />
    </Group>
  );
}

/** Sync: copy the notification choices and the addresses to the user's other browsers. */
export function SyncGroup({ form }: { form: SettingsForm }) {
  return (
    <Group id="sync" titleKey="sync" whyKey="groupSyncWhy">
      <label class="check">
        <input type="checkbox" checked={form.sync} onChange={(e) => form.setSync((e.target as HTMLInputElement).checked)} />
        {t('syncLabel')}
      </label>
      <p class="hint">{t('syncHint')}</p>
    </Group>
  );
}

/** Shortcuts: the two commands as the browser has them bound. */
export function ShortcutsGroup() {
  return (
    <Group id="shortcuts" titleKey="groupShortcuts" whyKey="groupShortcutsWhy">
      <ShortcutList />
    </Group>
  );
}

/** The permissions of this browser's manifest (Chrome-only ones are absent in Firefox), and host access. */
function manifestPermissions(): Set<string> {
  const manifest = browser.runtime.getManifest();
  return new Set([...(manifest.permissions ?? []), ...(manifest.optional_permissions ?? []), 'host']);
}

/** What each permission of this browser is for. */
export function PermissionsSection() {
  const declared = manifestPermissions();
  return (
    <section class="permissions" aria-labelledby="permissions-title">
      <h2 id="permissions-title">{t('permissionsTitle')}</h2>
      <dl>
        {PERMISSION_USES.filter((p) => declared.has(p.name)).map((p) => (
          <div key={p.name} data-permission={p.name}>
            <dt>
              {t(p.title)} {p.optional ? <span class="muted">{t('askedWhenNeeded')}</span> : null}
            </dt>
            <dd>{t(p.use)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
