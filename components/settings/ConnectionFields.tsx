import { useState } from 'preact/hooks';
import { t } from '@/lib/i18n';
import type { Status } from './save';

/** The example service URL shown in the field (a placeholder, never saved). */
export const EXAMPLE_URL = 'https://api.example.com';

/**
 * The connection to the Svc service, as the welcome page and the options page show it: the service URL with an
 * example and where it comes from, the access key (masked, with Show) and where it comes from, the browser's
 * permission prompt explained before it appears, and Test connection with its plain answer (`testStatus`).
 */
export function ConnectionFields(props: {
  baseUrl: string;
  accessKey: string;
  onBaseUrl: (value: string) => void;
  onAccessKey: (value: string) => void;
  onTest: () => void;
  testing: boolean;
  testStatus: Status;
}) {
  const [showKey, setShowKey] = useState(false);
  return (
    <div class="connection">
      <div class="field">
        <label for="base-url">{t('serviceUrl')}</label>
        <input
          id="base-url"
          type="url"
          value={props.baseUrl}
          placeholder={EXAMPLE_URL}
          aria-describedby="base-url-example base-url-where"
          onInput={(e) => props.onBaseUrl((e.target as HTMLInputElement).value)}
        />
        <p class="hint" id="base-url-example">
          {t('connUrlExample')}
        </p>
        <p class="hint" id="base-url-where">
          {t('connUrlWhere')}
        </p>
      </div>
      <div class="field">
        <label for="access-key">{t('accessKey')}</label>
        <div class="key-row">
          <input
            id="access-key"
            type={(showKey ? 'text' : 'password') as 'text'}
            value={props.accessKey}
            autocomplete="off"
            spellcheck={false}
            aria-describedby="access-key-where"
            onInput={(e) => props.onAccessKey((e.target as HTMLInputElement).value)}
          />
          <button type="button" class="secondary" onClick={() => setShowKey(!showKey)} aria-pressed={showKey}>
            {showKey ? t('hide') : t('show')}
          </button>
        </div>
        <p class="hint" id="access-key-where">
          {t('connKeyWhere')}
        </p>
      </div>
      <p class="note" data-testid="permission-note">
        {t('connPermissionNote')}
      </p>
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onTest} disabled={props.testing}>
          {t('testConnection')}
        </button>
      </div>
      {props.testStatus && (
        <p class={`result ${props.testStatus.ok ? 'result-ok' : 'result-bad'}`} role="status" data-testid="test-status">
          {props.testStatus.text}
        </p>
      )}
    </div>
  );
}
