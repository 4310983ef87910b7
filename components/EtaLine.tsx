import { type Eta, etaText, sourceText } from '@/lib/eta';
import { t } from '@/lib/i18n';

/**
 * The ETA in one line: "≈ 1 min left · estimate from the quote", "taking longer than usual (expected ≈ 2 min)",
 * "completed in 1 min 12 s". Nothing when there is nothing to say.
 */
export function EtaLine({ eta }: { eta: Eta }) {
  const text = etaText(eta);
  if (!text) return null;
  const source = eta.kind === 'counting' || eta.kind === 'waiting' || eta.kind === 'delayed' ? eta.source : undefined;
  return (
    <span class={`eta eta-${eta.kind}`} role={eta.kind === 'delayed' ? 'status' : undefined}>
      {text}
      {eta.kind === 'finished' && eta.early ? ` ${t('earlierThanExpected')}` : ''}
      {source && <span class="muted"> · {sourceText(source)}</span>}
    </span>
  );
}
