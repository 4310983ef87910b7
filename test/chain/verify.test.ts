import { toEventSelector } from 'viem';
import { describe, expect, it } from 'vitest';
import { checkTransfer, TRANSFER_TOPIC, type TransferCheck } from '@/lib/chain/transfer';
import {
  type ChainReceipt,
  isSettled,
  type LegCheck,
  type LegContext,
  type LegObservation,
  settledFor,
  verifyLeg,
} from '@/lib/chain/verify';

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const BLOCK_HASH = `0x${'1a'.repeat(32)}`;
const pad = (address: string) => `0x${'0'.repeat(24)}${address.slice(2).toLowerCase()}`;
const transferLog = (to: string, amount: bigint, token = TOKEN) => ({
  address: token,
  topics: [TRANSFER_TOPIC, pad(OTHER), pad(to)],
  data: `0x${amount.toString(16).padStart(64, '0')}`,
});
const receipt = (over: Partial<ChainReceipt> = {}): ChainReceipt => ({
  status: 'success',
  blockNumber: 100n,
  blockHash: BLOCK_HASH,
  logs: [],
  to: TOKEN,
  ...over,
});
const context = (over: Partial<LegContext> = {}): LegContext => ({ finalityDepth: 10, missingGraceMs: 60_000, ...over });
const seen = (r: ChainReceipt | null, head: bigint, over: Partial<LegObservation> = {}): LegObservation => ({
  receipt: r,
  head,
  canonicalBlockHash: r ? r.blockHash : undefined,
  ...over,
});

describe('verifyLeg: one outcome each', () => {
  it('not seen yet: no receipt, the service does not call it mined', () => {
    expect(verifyLeg(seen(null, 500n), context())).toEqual({ kind: 'not-seen' });
  });
  it('not seen yet: the service calls it mined, but for less than the grace', () => {
    expect(verifyLeg(seen(null, 500n), context({ serviceMinedForMs: 59_999 }))).toEqual({ kind: 'not-seen' });
  });
  it('in block N with k confirmations: block 100 under head 104 has 5', () => {
    const check = verifyLeg(seen(receipt(), 104n), context());
    expect(check).toMatchObject({ kind: 'confirmed', blockNumber: 100n, confirmations: 5 });
    expect(isSettled(check)).toBe(false);
  });
  it('the head behind the receipt’s block (a lagging RPC node) gives 0 confirmations, not a negative count', () => {
    expect(verifyLeg(seen(receipt(), 98n), context())).toMatchObject({ kind: 'confirmed', confirmations: 0 });
  });
  it('final at the finality depth: block 100 under head 109 has 10 confirmations, depth 10', () => {
    expect(verifyLeg(seen(receipt(), 108n), context())).toMatchObject({ kind: 'confirmed', confirmations: 9 });
    const check = verifyLeg(seen(receipt(), 109n), context());
    expect(check).toMatchObject({ kind: 'final', blockNumber: 100n, confirmations: 10 });
    expect(isSettled(check)).toBe(true);
  });
  it('reverted, and settled once past the depth', () => {
    const young = verifyLeg(seen(receipt({ status: 'reverted' }), 101n), context());
    expect(young).toMatchObject({ kind: 'reverted', blockNumber: 100n, confirmations: 2, final: false });
    expect(isSettled(young)).toBe(false);
    expect(isSettled(verifyLeg(seen(receipt({ status: 'reverted' }), 120n), context()))).toBe(true);
  });
  it('not found after the service called it mined, once the grace is over', () => {
    expect(verifyLeg(seen(null, 500n), context({ serviceMinedForMs: 60_000 }))).toEqual({ kind: 'missing' });
  });
  it('re-orged out: seen in block 100 before, unknown now', () => {
    const before = { blockNumber: 100n, blockHash: BLOCK_HASH };
    expect(verifyLeg(seen(null, 103n), context({ seenBefore: before, serviceMinedForMs: 0 }))).toEqual({
      kind: 'reorged',
      blockNumber: 100n,
    });
  });
  it('re-orged out: the receipt names a block that is not the canonical one at its height', () => {
    const other = `0x${'2b'.repeat(32)}`;
    expect(verifyLeg(seen(receipt(), 105n, { canonicalBlockHash: other }), context())).toEqual({ kind: 'reorged', blockNumber: 100n });
    expect(verifyLeg(seen(receipt(), 105n, { canonicalBlockHash: null }), context())).toEqual({ kind: 'reorged', blockNumber: 100n });
  });
  it('re-mined in another block after a re-org: confirmed there, counted from the new block', () => {
    const before = { blockNumber: 100n, blockHash: `0x${'2b'.repeat(32)}` };
    const check = verifyLeg(seen(receipt({ blockNumber: 102n }), 102n), context({ seenBefore: before }));
    expect(check).toMatchObject({ kind: 'confirmed', blockNumber: 102n, confirmations: 1 });
  });
});

describe('the destination transfer', () => {
  const expected = { token: TOKEN, to: TO, amount: 249_100_000n };
  const transferOf = (logs: ChainReceipt['logs']) =>
    (verifyLeg(seen(receipt({ logs }), 101n), context({ transfer: expected })) as { transfer?: TransferCheck }).transfer;

  it('the Transfer topic is keccak256 of the event’s signature', () => {
    expect(TRANSFER_TOPIC).toBe(toEventSelector('Transfer(address,address,uint256)'));
  });
  it('received: the exact amount of the destination token to destinationToAddress', () => {
    expect(transferOf([transferLog(TO, 249_100_000n)])).toMatchObject({ kind: 'received', amount: 249_100_000n });
  });
  it('received in two parts (a router splitting the payment) sums them', () => {
    expect(transferOf([transferLog(TO, 249_000_000n), transferLog(TO, 100_000n)])).toMatchObject({
      kind: 'received',
      amount: 249_100_000n,
    });
  });
  it('less: a smaller amount', () => {
    expect(transferOf([transferLog(TO, 200_000_000n)])).toMatchObject({ kind: 'less', amount: 200_000_000n });
  });
  it('more: a larger amount', () => {
    expect(transferOf([transferLog(TO, 300_000_000n)])).toMatchObject({ kind: 'more', amount: 300_000_000n });
  });
  it('none: a transfer to someone else, of another token, or a log that is not a Transfer', () => {
    const notTransfer = { ...transferLog(TO, 249_100_000n), topics: [`0x${'00'.repeat(32)}`, pad(OTHER), pad(TO)] };
    const malformed = { ...transferLog(TO, 249_100_000n), data: '0xnothex' };
    expect(transferOf([transferLog(OTHER, 249_100_000n), transferLog(TO, 249_100_000n, OTHER), notTransfer, malformed])).toMatchObject({
      kind: 'none',
      amount: 0n,
    });
  });
  it('a native-token destination compares the transaction’s value sent to destinationToAddress', () => {
    const native = { ...expected, token: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', amount: 10n ** 18n };
    expect(checkTransfer([], native, { value: 10n ** 18n, txTo: TO.toLowerCase() }).kind).toBe('received');
    expect(checkTransfer([], native, { value: 10n ** 17n, txTo: TO }).kind).toBe('less');
    expect(checkTransfer([], native, { value: 10n ** 18n, txTo: OTHER }).kind).toBe('none');
  });
  it('a reverted destination transaction carries no transfer', () => {
    const check = verifyLeg(seen(receipt({ status: 'reverted', logs: [transferLog(TO, 1n)] }), 101n), context({ transfer: expected }));
    expect(check.kind).toBe('reverted');
    expect('transfer' in check).toBe(false);
  });
});

describe('settledFor: a settled verdict judged against the receipt’s transfer now', () => {
  const expected = { token: TOKEN, to: TO, amount: 249_100_000n };
  const final = verifyLeg(seen(receipt({ logs: [transferLog(TO, 249_100_000n)] }), 120n), context({ transfer: expected }));
  it('compares the amount that arrived with the amount the receipt names now, without a read', () => {
    expect(final).toMatchObject({ kind: 'final', transfer: { kind: 'received' } });
    expect(settledFor(final, { ...expected, amount: 300_000_000n })).toMatchObject({
      kind: 'final',
      blockNumber: 100n,
      transfer: { kind: 'less', amount: 249_100_000n, expected: { amount: 300_000_000n } },
    });
    expect(settledFor(final, { ...expected, amount: 200_000_000n })).toMatchObject({ transfer: { kind: 'more' } });
    expect(settledFor(final, { ...expected, to: TO.toLowerCase() })).toMatchObject({ transfer: { kind: 'received' } });
  });
  it('needs a read when the receipt names another recipient or token, or a transfer the verdict did not compare', () => {
    expect(settledFor(final, { ...expected, to: OTHER })).toBeUndefined();
    expect(settledFor(final, { ...expected, token: OTHER })).toBeUndefined();
    const noTransfer: LegCheck = { kind: 'final', blockNumber: 100n, blockHash: BLOCK_HASH, confirmations: 21 };
    expect(settledFor(noTransfer, expected)).toBeUndefined();
  });
  it('keeps a verdict with nothing to compare as it is, and drops a transfer the receipt no longer names', () => {
    const noTransfer: LegCheck = { kind: 'final', blockNumber: 100n, blockHash: BLOCK_HASH, confirmations: 21 };
    expect(settledFor(noTransfer, undefined)).toBe(noTransfer);
    const reverted: LegCheck = { kind: 'reverted', final: true, blockNumber: 100n, blockHash: BLOCK_HASH, confirmations: 21 };
    expect(settledFor(reverted, expected)).toBe(reverted);
    expect(settledFor(final, undefined)).toEqual(noTransfer);
  });
});
