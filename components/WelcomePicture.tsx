import { t } from '@/lib/i18n';
import { BellIcon, CheckIcon } from './icons';

/**
 * The welcome page's one picture, drawn in SVG (no words inside, so it needs no translation): the toolbar button's
 * list of tracked intents with their progress, and the desktop notification of one that succeeded.
 */
export function WelcomePicture() {
  return (
    <svg class="welcome-picture" viewBox="0 0 360 170" role="img" aria-label={t('welcomePictureAlt')}>
      {/* The popup: a list of three tracked intents. */}
      <rect x="10" y="10" width="200" height="150" rx="10" fill="var(--neutral-bg)" stroke="var(--line)" />
      <rect x="24" y="24" width="90" height="10" rx="5" fill="var(--muted)" opacity="0.5" />
      {[0, 1, 2].map((i) => (
        <g key={i} transform={`translate(24 ${48 + i * 36})`}>
          <rect width="172" height="28" rx="6" fill="var(--bg)" stroke="var(--line)" />
          <rect x="8" y="8" width="34" height="12" rx="6" fill={i === 0 ? 'var(--good-bg)' : 'var(--busy-bg)'} />
          <rect x="50" y="9" width="70" height="10" rx="5" fill="var(--muted)" opacity="0.4" />
          {i > 0 && <rect x="50" y="22" width={40 + i * 30} height="3" rx="1.5" fill="var(--busy)" />}
        </g>
      ))}
      {/* The desktop notification: an intent succeeded. */}
      <g transform="translate(178 96)">
        <rect width="172" height="60" rx="10" fill="var(--bg)" stroke="var(--accent)" stroke-width="2" />
        <circle cx="26" cy="30" r="15" fill="var(--good-bg)" />
        <g transform="translate(17 21)" style={{ color: 'var(--good)' }}>
          <CheckIcon size={18} />
        </g>
        <rect x="52" y="18" width="100" height="10" rx="5" fill="var(--fg)" opacity="0.7" />
        <rect x="52" y="34" width="70" height="8" rx="4" fill="var(--muted)" opacity="0.5" />
      </g>
      <g transform="translate(318 16)" style={{ color: 'var(--accent)' }}>
        <BellIcon size={28} />
      </g>
    </svg>
  );
}
