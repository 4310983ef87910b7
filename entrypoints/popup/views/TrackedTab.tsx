import { IntentRow } from '@/components/IntentRow';
import { TrackForm } from '@/components/TrackForm';
import type { TrackedIntent } from '@/lib/store';

/** Tracked tab: the Track box and the tracked intents. */
export function TrackedTab(props: {
  intents: TrackedIntent[] | undefined;
  now: number;
  message?: { text: string; error: boolean };
  busy: boolean;
  onTrack: (text: string) => void;
  onTrackClipboard: () => void;
  onOpen: (intentId: string) => void;
  onRemove: (intentId: string) => void;
}) {
  return (
    <>
      <TrackForm onTrack={props.onTrack} onTrackClipboard={props.onTrackClipboard} message={props.message} busy={props.busy} />
      <section aria-labelledby="tracked-title">
        <h2 id="tracked-title">Tracked intents</h2>
        {props.intents === undefined ? (
          <p class="muted">Loading…</p>
        ) : props.intents.length === 0 ? (
          <p class="muted">Nothing tracked yet. Copy an intent ID and press “Track from clipboard”.</p>
        ) : (
          <ul class="intent-list" aria-label="Tracked intents">
            {props.intents.map((intent) => (
              <IntentRow
                key={intent.intentId}
                intent={intent}
                now={props.now}
                onOpen={() => props.onOpen(intent.intentId)}
                onRemove={() => props.onRemove(intent.intentId)}
              />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
