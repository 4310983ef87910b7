/**
 * When the chain and the service disagree (docs/chain.md): the one decision, from the
 * service's IntentStatus and the verifier's verdict on a leg, of what the user must be told. Pure; the notification
 * pipeline shows each {@link Disagreement} once per intent and kind ({@link disagreementKey}).
 */
import type { LegKind } from '../api/legs';
import type { LegCheck } from './verify';

/**
 * - `destination-reverted`: the service says SUCCEEDED, the destination transaction reverted;
 * - `destination-missing`: the service says SUCCEEDED, the chain does not know the destination transaction;
 * - `amount-differs`: the service says SUCCEEDED, the destination transfer moved another amount (or none);
 * - `reorged`: a leg confirmed earlier was re-orged out;
 * - `arrived-early`: the destination transfer is confirmed as the receipt says while the service still says
 *   EXECUTING (the good kind: the user learns it sooner than the service can say).
 */
export type DisagreementKind = 'destination-reverted' | 'destination-missing' | 'amount-differs' | 'reorged' | 'arrived-early';

/** One disagreement on one leg. */
export interface Disagreement {
  kind: DisagreementKind;
  leg: LegKind;
  check: LegCheck;
}

/**
 * What to tell the user about `leg`, given the service's IntentStatus now, the verifier's verdict now and its
 * previous verdict on the same leg (undefined: first check). Undefined when chain and service agree, or when the chain
 * cannot tell yet (not seen, confirmed with fewer confirmations and no transfer to compare).
 */
export function disagreementOf(
  serviceStatus: string,
  leg: LegKind,
  check: LegCheck,
  previous: LegCheck | undefined,
): Disagreement | undefined {
  const wasInBlock = previous?.kind === 'confirmed' || previous?.kind === 'final' || previous?.kind === 'reverted';
  if (check.kind === 'reorged') return wasInBlock ? { kind: 'reorged', leg, check } : undefined;
  if (leg !== 'destination') return undefined;
  const succeeded = serviceStatus === 'SUCCEEDED';
  if (succeeded && check.kind === 'reverted') return { kind: 'destination-reverted', leg, check };
  if (succeeded && check.kind === 'missing') return { kind: 'destination-missing', leg, check };
  if (check.kind !== 'confirmed' && check.kind !== 'final') return undefined;
  const transfer = check.transfer?.kind;
  if (succeeded && transfer !== undefined && transfer !== 'received') return { kind: 'amount-differs', leg, check };
  if (serviceStatus === 'EXECUTING' && transfer === 'received') return { kind: 'arrived-early', leg, check };
  return undefined;
}

/** The key under which a disagreement is shown once: intent, kind and leg. */
export function disagreementKey(intentId: string, d: Pick<Disagreement, 'kind' | 'leg'>): string {
  return `chain:${intentId}:${d.kind}:${d.leg}`;
}

/**
 * True when the receipt may say "verified on-chain": the service says SUCCEEDED and the destination leg is final with
 * the exact transfer the receipt promises.
 */
export function isVerifiedOnChain(serviceStatus: string, destination: LegCheck | undefined): boolean {
  return serviceStatus === 'SUCCEEDED' && destination?.kind === 'final' && destination.transfer?.kind === 'received';
}
