/** A compact progress bar (`value` in 0..1) with an accessible name, e.g. "2 of 3 steps done". */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <span class="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
      <span class="progress-fill" style={{ width: `${percent}%` }} />
    </span>
  );
}
