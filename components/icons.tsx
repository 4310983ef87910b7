/**
 * The UI's icons as inline SVG (no emoji, no icon font: a system without an emoji font draws emoji as empty boxes).
 * Strokes follow `currentColor`, so an icon takes the colour of its button and of the theme. The shapes are those of
 * the Lucide set (ISC licence), drawn on a 24 × 24 grid. Every icon is decorative (`aria-hidden`): the button around
 * it carries the words.
 */
import type { ComponentChildren } from 'preact';

/** Size in CSS pixels (default 16) and an optional class. */
export interface IconProps {
  size?: number;
  class?: string;
}

function Svg(props: IconProps & { name: string; children: ComponentChildren }) {
  const size = props.size ?? 16;
  return (
    <svg
      class={`icon icon-${props.name}${props.class ? ` ${props.class}` : ''}`}
      data-icon={props.name}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {props.children}
    </svg>
  );
}

/** A bell: notifications on. */
export function BellIcon(props: IconProps) {
  return (
    <Svg {...props} name="bell">
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </Svg>
  );
}

/** A struck-through bell: notifications muted. */
export function BellOffIcon(props: IconProps) {
  return (
    <Svg {...props} name="bell-off">
      <path d="M8.7 3A6 6 0 0 1 18 8a21.3 21.3 0 0 0 .6 5" />
      <path d="M17 17H3s3-2 3-9a4.67 4.67 0 0 1 .3-1.7" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      <path d="m2 2 20 20" />
    </Svg>
  );
}

/** A cross: remove, close. */
export function CloseIcon(props: IconProps) {
  return (
    <Svg {...props} name="close">
      <path d="M18 6 6 18" />
      <path d="m6 6 12 12" />
    </Svg>
  );
}

/** A tick: done, connected. */
export function CheckIcon(props: IconProps) {
  return (
    <Svg {...props} name="check">
      <path d="M20 6 9 17l-5-5" />
    </Svg>
  );
}

/** A warning triangle: something to fix. */
export function AlertIcon(props: IconProps) {
  return (
    <Svg {...props} name="alert">
      <path d="m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3" />
      <path d="M12 9v4" />
      <path d="M12 17h.01" />
    </Svg>
  );
}

/** A clipboard: paste, track from the clipboard. */
export function ClipboardIcon(props: IconProps) {
  return (
    <Svg {...props} name="clipboard">
      <rect width="8" height="4" x="8" y="2" rx="1" ry="1" />
      <path d="M16 4h2a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h2" />
    </Svg>
  );
}
