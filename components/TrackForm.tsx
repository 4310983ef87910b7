import { useState } from 'preact/hooks';
import { t } from '@/lib/i18n';

/**
 * The Track box: a text box labelled "Intent ID" that takes one intentId or a pasted list (any separators), a "Track"
 * button (Enter; Shift+Enter for a new line) and a "Track from clipboard" button. `onTrack` may resolve with the text
 * to leave in the box (what was not tracked); undefined leaves it as it is. `message` is shown under it (role=status);
 * `error` marks it as an error (role=alert).
 */
export function TrackForm(props: {
  onTrack: (text: string) => Promise<string | undefined>;
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
        void props.onTrack(text).then((keep) => {
          if (keep !== undefined) setText(keep);
        });
      }}
    >
      <label for="intent-id">{t('intentIdLabel')}</label>
      <div class="track-row">
        <textarea
          id="intent-id"
          name="intentId"
          rows={1}
          autocomplete="off"
          spellcheck={false}
          placeholder="0x…"
          aria-describedby="intent-id-hint"
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
            e.preventDefault();
            (e.currentTarget as HTMLTextAreaElement).form?.requestSubmit();
          }}
        />
        <button type="submit" disabled={props.busy}>
          {t('track')}
        </button>
      </div>
      <p class="hint" id="intent-id-hint">
        {t('trackManyHint')}
      </p>
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
