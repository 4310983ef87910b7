import { statusLabel, statusTone } from '@/lib/format/intent';

/** A coloured chip with the human word for an IntentStatus or TransactionStatus (unknown values shown as sent). */
export function StatusChip({ status }: { status: string | undefined }) {
  return <span class={`chip chip-${statusTone(status)}`}>{statusLabel(status)}</span>;
}
