import type { LegKind } from '@/lib/api/legs';
import { formatDuration } from '@/lib/eta';
import type { StepState, Timeline as TimelineModel } from '@/lib/format/timeline';
import { StatusChip } from './StatusChip';

const NAMES: Record<LegKind, string> = { deposit: 'Deposit', origin: 'Origin', destination: 'Destination', refund: 'Refund' };
const WORDS: Record<StepState, string> = {
  done: 'done',
  failed: 'failed',
  active: 'in progress',
  waiting: 'not yet',
  skipped: 'not reached',
};

/** The progress timeline: one row per leg with its state and the time it took, then the total when finished. */
export function Timeline({ timeline, total }: { timeline: TimelineModel; total?: string }) {
  return (
    <div class="timeline-box">
      <ol class="timeline" aria-label="Progress">
        {timeline.steps.map((step) => (
          <li key={step.kind} class={`step step-${step.state}`} data-step={step.kind}>
            <span class="step-dot" aria-hidden="true" />
            <span class="step-name">{NAMES[step.kind]}</span>
            {step.status ? <StatusChip status={step.status} /> : <span class="muted">{WORDS[step.state]}</span>}
            <span class="muted step-took">{step.tookMs !== undefined ? formatDuration(step.tookMs) : ''}</span>
          </li>
        ))}
      </ol>
      {total && <p class="timeline-total">{total}</p>}
    </div>
  );
}
