import type { ErrorMessage } from '@/lib/format/errors';
import { t } from '@/lib/i18n';

/** An error box (role=alert) saying what happened, with "Open settings" or "Try again" when they help. */
export function ErrorNotice(props: { error: ErrorMessage; onOpenSettings?: () => void; onRetry?: () => void }) {
  return (
    <div class="notice notice-error" role="alert">
      <p>{props.error.text}</p>
      <div class="actions">
        {props.error.openSettings && props.onOpenSettings && (
          <button type="button" class="secondary" onClick={props.onOpenSettings}>
            {t('openSettings')}
          </button>
        )}
        {props.onRetry && (
          <button type="button" class="secondary" onClick={props.onRetry}>
            {t('tryAgain')}
          </button>
        )}
      </div>
    </div>
  );
}
