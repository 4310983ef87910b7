import type { MoneyGuidance as Guidance } from '@/lib/format/guidance';
import { t } from '@/lib/i18n';

/** "Where is my money now": the sentence, the link that proves it (or the hash to quote), and what to do next. */
export function MoneyGuidance({ guidance }: { guidance: Guidance }) {
  const { proof } = guidance;
  return (
    <section class="money" aria-labelledby="money-title">
      <h3 id="money-title">{t('whereIsMyMoney')}</h3>
      <p class="money-where">{guidance.where}</p>
      {proof && (
        <p class="money-proof">
          {proof.url ? (
            <a href={proof.url} target="_blank" rel="noopener noreferrer">
              {t('seeOnExplorer', proof.label)}
            </a>
          ) : (
            <span>{t('proofNoExplorer', proof.label)}</span>
          )}
        </p>
      )}
      <p class="money-next">
        <strong>{t('nextColon')} </strong>
        {guidance.next}
      </p>
    </section>
  );
}
