import { useState } from 'preact/hooks';
import { t } from '@/lib/i18n';

/**
 * The Track box: a text field labelled "Intent ID", a "Track" button and a "Track from clipboard" button.
 * `message` is shown under it (role=status); `error` marks it as an error (role=alert).
 */
export function TrackForm(props: {
  onTrack: (text: string) => void;
  onTrackClipboard: () => void;
  message?: { text: string; error: boolean };
  busy?: boolean;
}) {
  const [text, setText] = useState('');
  return (
    <form
      class="track-form"
      onSubmit={(e) => {
        e.preventDefault();
        props.onTrack(text);
      }}
    >
      <label for="intent-id">{t('intentIdLabel')}</label>
      <div class="track-row">
        <input
          id="intent-id"
          name="intentId"
          type="text"
          autocomplete="off"
          spellcheck={false}
          placeholder="0x…"
          value={text}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
        />
        <button type="submit" disabled={props.busy}>
          {t('track')}
        </button>
      </div>
      <button type="button" class="secondary wide" onClick={props.onTrackClipboard} disabled={props.busy}>
        {t('trackFromClipboard')}
      </button>
      {props.message && (
        <p class={props.message.error ? 'message error' : 'message'} role={props.message.error ? 'alert' : 'status'}>
          {props.message.text}
        </p>
      )}
    </form>
  );
}
