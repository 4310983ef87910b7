/**
 * When each watched address was ticked for auto-tracking, as a token rather than a time: `Settings.autoTrackTicks`
 * lists `<address>:<token>` for the ticked addresses (address lower-case; the token random, made when it was ticked,
 * kept while it stays ticked, and new when it is ticked again after being unticked). The watched-address check
 * (`lib/worker/watched.ts`) keeps the token its checkpoint belongs to: a different token means the address was ticked
 * again since — however that came (a save with no check in between, the browser closed within a minute of unticking,
 * a change from another device by sync) — and the check starts from that moment, never from where the old checkpoint
 * stood. No clock is compared. A list of strings, so that `storage.sync` can split it like the address lists.
 */
import type { Settings } from './types';

/** Characters of a tick token: enough to tell one tick of an address from its others. */
const TOKEN_LENGTH = 8;

/** A new tick token from `random` (uniform in [0, 1), e.g. Math.random): base-36, {@link TOKEN_LENGTH} characters. */
export function newTickToken(random: () => number = Math.random): string {
  let out = '';
  for (let i = 0; i < TOKEN_LENGTH; i++) out += Math.floor(random() * 36).toString(36);
  return out;
}

/** The tick token of `address` in `settings` (any case), or undefined when it has none. */
export function tickOf(settings: Pick<Settings, 'autoTrackTicks'> | undefined, address: string): string | undefined {
  const prefix = `${address.toLowerCase()}:`;
  const ticks = settings?.autoTrackTicks;
  if (!Array.isArray(ticks)) return undefined;
  const entry = ticks.find((e) => typeof e === 'string' && e.startsWith(prefix));
  return entry?.slice(prefix.length) || undefined;
}

/**
 * The settings to save: `next` with `autoTrackTicks` for its ticked addresses — the token `prev` (the settings as they
 * were before this save; undefined when unknown) held for an address ticked in both, a new one (`newToken()`) for an
 * address ticked now and not before. An address ticked before tokens were made keeps none (its checkpoint has none
 * either). Tokens of unticked addresses are dropped; no ticked address with a token: no field.
 */
export function stampTicks(prev: Settings | undefined, next: Settings, newToken: () => string = newTickToken): Settings {
  const wasTicked = new Set((prev?.autoTrackAddresses ?? []).map((a) => a.toLowerCase()));
  const ticks: string[] = [];
  for (const address of new Set((next.autoTrackAddresses ?? []).map((a) => a.toLowerCase()))) {
    const token = wasTicked.has(address) ? tickOf(prev, address) : newToken();
    if (token) ticks.push(`${address}:${token}`);
  }
  const { autoTrackTicks: _, ...rest } = next;
  return ticks.length > 0 ? { ...rest, autoTrackTicks: ticks } : rest;
}
