import { formatDuration } from '@/lib/eta';
import { legName } from '@/lib/format/intent';
import type { StepState, Timeline as TimelineModel } from '@/lib/format/timeline';
import { type MessageKey, t } from '@/lib/i18n';
import { StatusChip } from './StatusChip';

const WORDS: Record<StepState, MessageKey> = {
  done: 'stepDone',
  failed: 'stepFailed',
  active: 'stepActive',
  waiting: 'notYet',
  skipped: 'stepSkipped',
};

/** The progress timeline: one row per leg with its state and the time it took, then the total when finished. */
export function Timeline({ timeline, total }: { timeline: TimelineModel; total?: string }) {
  return (
    <div class="timeline-box">
      <ol class="timeline" aria-label={t('progress')}>
        {timeline.steps.map((step) => (
          <li key={step.kind} class={`step step-${step.state}`} data-step={step.kind}>
            <span class="step-dot" aria-hidden="true" />
            <span class="step-name">{legName(step.kind)}</span>
            {step.status ? <StatusChip status={step.status} /> : <span class="muted">{t(WORDS[step.state])}</span>}
            <span class="muted step-took">{step.tookMs !== undefined ? formatDuration(step.tookMs) : ''}</span>
          </li>
        ))}
      </ol>
      {total && <p class="timeline-total">{total}</p>}
    </div>
  );
}
