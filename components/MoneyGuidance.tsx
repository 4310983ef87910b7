import type { MoneyGuidance as Guidance } from '@/lib/format/guidance';

/** "Where is my money now": the sentence, the link that proves it (or the hash to quote), and what to do next. */
export function MoneyGuidance({ guidance }: { guidance: Guidance }) {
  const { proof } = guidance;
  return (
    <section class="money" aria-labelledby="money-title">
      <h3 id="money-title">Where is my money?</h3>
      <p class="money-where">{guidance.where}</p>
      {proof && (
        <p class="money-proof">
          {proof.url ? (
            <a href={proof.url} target="_blank" rel="noopener noreferrer">
              See the {proof.label} on the explorer
            </a>
          ) : (
            <span>Proof: {proof.label} (no explorer known for this chain)</span>
          )}
        </p>
      )}
      <p class="money-next">
        <strong>Next: </strong>
        {guidance.next}
      </p>
    </section>
  );
}
