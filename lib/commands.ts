/**
 * Keyboard commands (manifest `commands`) and the messages of the Chrome offscreen document that reads the clipboard
 * for one of them. No imports: `wxt.config.ts` reads the command names.
 */

/** The command that tracks the intentId (or the transaction hash) on the clipboard. */
export const COMMAND_TRACK_CLIPBOARD = 'track-clipboard';

/** The worker asks the offscreen document for the clipboard's text with this message type; the reply is a string. */
export const OFFSCREEN_READ_CLIPBOARD = 'svc-offscreen-read-clipboard';
