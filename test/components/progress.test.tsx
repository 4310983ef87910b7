// @vitest-environment happy-dom
/**
 * The progress timeline, the ETA line, the compact progress bar and "where is my money" for every final status,
 * over receipts the simulator's scripted lifecycles and data set produce.
 */
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ReceiptView } from '@/components/ReceiptView';
import { TrackedTab } from '@/entrypoints/popup/views/TrackedTab';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { TrackedIntent } from '@/lib/store';
import { intentAddressOf, legHash, type SimIntent, snapshotAt } from '../../simulator/lifecycle';
import { type Simulator, startSimulator } from '../../simulator/server';
import { useLocale } from '../i18n/fake-i18n';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim?.close());
afterEach(cleanup);

const noop = () => {};
const short = (s: string) => `${s.slice(0, 6)}…${s.slice(-4)}`;
const OWNER = `0x${'ab'.repeat(20)}`;
const simIntent = (id: string) => sim.intents().find((i) => i.intentId === id)!;
/** A scripted intent and its receipt `afterMs` after its creation. */
function scripted(scenario: 'success' | 'failure' | 'refund', stepMs: number, afterMs: number) {
  const id = sim.createIntent(scenario, stepMs, OWNER, { createdAgoMs: afterMs });
  const intent = simIntent(id);
  return { id, intent, receipt: snapshotAt(intent, sim.now()).receipt as IntentReceipt, now: sim.now() };
}
const tracked = (receipt: IntentReceipt, extra: Partial<TrackedIntent> = {}): TrackedIntent => ({
  intentId: receipt.intentId!,
  addedAt: 0,
  receipt,
  status: receipt.status ?? undefined,
  lastStates: [],
  phase: ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED'].includes(receipt.status ?? '') ? 'final' : 'tracking',
  notification: 'none',
  ...extra,
});
const steps = () =>
  within(screen.getByRole('list', { name: 'Progress' }))
    .getAllByRole('listitem')
    .map((li) => [li.getAttribute('data-step'), li.textContent]);
const money = () => screen.queryByRole('region', { name: 'Where is my money?' });

describe('progress timeline', () => {
  it('a finished intent: each leg done with the time it took, and the total', () => {
    // Success script: deposit mined 1 step after the start, origin 2 steps later (the bridge), destination 1 more.
    const { id, receipt, now } = scripted('success', 15_000, 10 * 60_000);
    render(
      <ReceiptView
        intentId={id}
        receipt={receipt}
        now={now}
        onBack={noop}
        details={{ feeUsd: 1.34, prices: { origin: 1, destination: 1 } }}
      />,
    );
    expect(steps()).toEqual([
      ['deposit', 'DepositSucceeded15 s'],
      ['origin', 'OriginSucceeded30 s'],
      ['destination', 'DestinationSucceeded15 s'],
    ]);
    expect(screen.getByText('completed in 1 min')).toBeTruthy();
    expect(money()).toBeNull(); // nothing to explain for a success
    // USD values at the prices given, and the fee total.
    expect(screen.getByText('($250.00)')).toBeTruthy();
    expect(screen.getByText('($249.10)')).toBeTruthy();
    expect(screen.getByText('$1.34')).toBeTruthy();
  });

  it('an intent in flight: the done legs, the one under way, the ones to come, and the countdown', () => {
    // 45 s in with 15 s steps: deposit mined at 30 s, origin relaying since then.
    const { id, receipt, now } = scripted('success', 15_000, 45_000);
    render(<ReceiptView intentId={id} receipt={receipt} tracked={tracked(receipt, { estimatedDuration: 60 })} now={now} onBack={noop} />);
    expect(steps()).toEqual([
      ['deposit', 'DepositSucceeded15 s'],
      ['origin', 'OriginRELAYING'],
      ['destination', 'Destinationnot yet'],
    ]);
    expect(screen.getByText(/≈ 30 s left/).textContent).toBe('≈ 30 s left · estimate from the quote');
  });

  it('a tracked intent in flight can be muted from its receipt; a finished one offers no mute', () => {
    const { id, receipt, now } = scripted('success', 15_000, 45_000);
    const calls: boolean[] = [];
    const { rerender } = render(
      <ReceiptView intentId={id} receipt={receipt} tracked={tracked(receipt)} now={now} onBack={noop} onMute={(m) => calls.push(m)} />,
    );
    const mute = screen.getByRole('button', { name: 'Mute notifications' });
    expect(mute.getAttribute('aria-pressed')).toBe('false');
    mute.click();
    rerender(
      <ReceiptView
        intentId={id}
        receipt={receipt}
        tracked={tracked(receipt)}
        now={now}
        onBack={noop}
        muted
        onMute={(m) => calls.push(m)}
      />,
    );
    const unmute = screen.getByRole('button', { name: 'Unmute notifications' });
    expect(unmute.getAttribute('aria-pressed')).toBe('true');
    unmute.click();
    expect(calls).toEqual([true, false]);
    const done = scripted('success', 15_000, 10 * 60_000);
    rerender(
      <ReceiptView intentId={done.id} receipt={done.receipt} tracked={tracked(done.receipt)} now={done.now} onBack={noop} onMute={noop} />,
    );
    expect(screen.queryByRole('button', { name: /mute notifications/i })).toBeNull();
  });

  it('a refund adds its leg; a failed intent shows the legs it never reached', () => {
    const refunded = scripted('refund', 10_000, 10 * 60_000);
    render(<ReceiptView intentId={refunded.id} receipt={refunded.receipt} now={refunded.now} onBack={noop} />);
    // Refund script: deposit mined 1 step after the start, the origin reverted 2 steps later, the refund 2 more.
    expect(steps()).toEqual([
      ['deposit', 'DepositSucceeded10 s'],
      ['origin', 'OriginREVERTED20 s'],
      ['destination', 'Destinationnot reached'],
      ['refund', 'RefundSucceeded20 s'],
    ]);
    expect(screen.getByText('refunded after 50 s')).toBeTruthy();
  });
});

describe('where is my money', () => {
  it('REFUNDED: refunded to which address on which chain, with the refund transaction on the explorer', () => {
    const { id, intent, receipt, now } = scripted('refund', 10_000, 10 * 60_000);
    render(<ReceiptView intentId={id} receipt={receipt} now={now} onBack={noop} />);
    const box = money()!;
    expect(box.textContent).toContain(`Refunded: 1.50 ETH went back to ${short(OWNER)} on Arbitrum One.`);
    expect(within(box).getByRole('link').getAttribute('href')).toBe(`https://arbiscan.io/tx/${legHash(intent, 'refund')}`);
    expect(box.textContent).toContain('Next: Nothing to do: the funds are in that wallet.');
  });

  it('FAILED after the deposit: at the intent address until the balances say more; held funds are recoverable', () => {
    const { id, intent, receipt, now } = scripted('failure', 10_000, 10 * 60_000);
    const address = intentAddressOf(intent);
    const { rerender } = render(<ReceiptView intentId={id} receipt={receipt} now={now} onBack={noop} />);
    expect(money()!.textContent).toContain(
      `The deposit of 1.50 ETH reached the intent address ${short(address)} on Arbitrum One; no refund is in the receipt yet.`,
    );
    expect(within(money()!).getByRole('link').getAttribute('href')).toBe(`https://arbiscan.io/tx/${legHash(intent, 'deposit')}`);
    expect(money()!.textContent).toContain('A refund may still follow');

    rerender(<ReceiptView intentId={id} receipt={receipt} now={now} onBack={noop} details={{ holdings: [] }} />);
    expect(money()!.textContent).toContain('which holds nothing now, and no refund is in the receipt.');
    expect(money()!.textContent).toContain('Contact Svc support with the intent ID');

    const holdings = [
      { intentAddress: address, chainId: 42161, tokens: [{ balance: '1500000000000000000', decimals: 18, symbol: 'ETH' }] },
    ];
    rerender(<ReceiptView intentId={id} receipt={receipt} now={now} onBack={noop} details={{ holdings }} />);
    expect(money()!.textContent).toContain(
      `1.50 ETH is still held at the intent address ${short(address)} on Arbitrum One, and can be recovered.`,
    );
    expect(within(money()!).getByRole('link').getAttribute('href')).toBe(`https://arbiscan.io/address/${address}`);
  });

  it('ABORTED with funds left (the data set’s intents, with the balances history gives)', () => {
    const now = sim.now();
    const aborted = sim.intents().find((i: SimIntent) => i.balance && snapshotAt(i, now).status === 'ABORTED')!;
    const receipt = snapshotAt(aborted, now).receipt as IntentReceipt;
    const { token, amount } = aborted.balance!;
    const holdings = [
      {
        intentAddress: intentAddressOf(aborted),
        chainId: token.chainId,
        tokens: [{ balance: amount, decimals: token.decimals, symbol: token.symbol }],
      },
    ];
    render(<ReceiptView intentId={aborted.intentId} receipt={receipt} now={now} onBack={noop} details={{ holdings }} />);
    expect(money()!.textContent).toMatch(
      new RegExp(` ${token.symbol} is still held at the intent address ${short(intentAddressOf(aborted))} on `),
    );
  });

  it('ABORTED or FAILED before the deposit: the funds never left the wallet; an unknown chain gets no link', () => {
    const receipt: IntentReceipt = {
      intentId: '0x1',
      status: 'ABORTED',
      ownerAddress: OWNER,
      originChainId: 42161,
      destinationChainId: 8453,
      depositTransaction: { chainId: 42161, status: 'FAILED' },
    };
    render(<ReceiptView intentId="0x1" receipt={receipt} now={0} onBack={noop} />);
    expect(money()!.textContent).toContain(`The deposit never completed, so the funds did not leave ${short(OWNER)}.`);
    expect(within(money()!).queryByRole('link')).toBeNull();
    cleanup();
    const hash = `0x${'12'.repeat(32)}`;
    const elsewhere: IntentReceipt = {
      ...receipt,
      status: 'REFUNDED',
      refundTransaction: { chainId: 777777, status: 'SUCCEEDED', toAddress: OWNER, txnHash: hash },
    };
    render(<ReceiptView intentId="0x1" receipt={elsewhere} now={0} onBack={noop} />);
    expect(money()!.textContent).toContain(`went back to ${short(OWNER)} on Chain 777777.`);
    expect(within(money()!).queryByRole('link')).toBeNull();
    expect(money()!.textContent).toContain(`refund transaction ${short(hash)} (no explorer known for this chain)`);
  });
});

describe('tracked list', () => {
  it('puts intents in flight first, each with a progress bar and its ETA; finished ones have neither', () => {
    const done = scripted('success', 1_000, 10 * 60_000);
    const flying = scripted('success', 20_000, 50_000); // deposit mined, origin relaying
    const intents = [tracked(done.receipt), tracked(flying.receipt, { routeDuration: 100 })];
    render(
      <TrackedTab
        intents={intents}
        now={flying.now}
        busy={false}
        onAcceptSuggestion={noop}
        onDismissSuggestion={noop}
        onClearFinished={noop}
        onTrack={async () => undefined}
        onImported={async () => {}}
        onTrackClipboard={noop}
        onOpen={noop}
        onRemove={noop}
      />,
    );
    const rows = within(screen.getByRole('list', { name: 'Tracked intents' })).getAllByRole('listitem');
    expect(rows.map((r) => r.getAttribute('data-intent-id'))).toEqual([flying.id, done.id]);
    const bar = within(rows[0]!).getByRole('progressbar');
    expect(bar.getAttribute('aria-label')).toBe('1 of 3 steps done');
    expect(bar.getAttribute('aria-valuenow')).toBe('33');
    expect(rows[0]!.textContent).toContain('≈ 1 min left · typical for this route'); // 100 s − 30 s
    expect(within(rows[1]!).queryByRole('progressbar')).toBeNull();
  });
});

describe('a final intent described as final', () => {
  afterEach(() => useLocale('en'));
  /** The failure script, 10 s steps, seen long after: FAILED 30 s after the start, the origin failed with no hash. */
  const failed = () => {
    const f = scripted('failure', 10_000, 10 * 60_000);
    // A quote that expected 10 minutes: the failure came long "before" it, which is no news.
    return {
      ...f,
      view: (
        <ReceiptView
          intentId={f.id}
          receipt={f.receipt}
          tracked={tracked(f.receipt, { estimatedDuration: 600 })}
          now={f.now}
          onBack={noop}
        />
      ),
    };
  };
  const originHash = () =>
    within(screen.getByRole('list', { name: legsName }))
      .getAllByRole('listitem')[1]!
      .querySelector('.leg-fields dd.mono')!.textContent;
  let legsName = 'Transactions';

  const cases = [
    { locale: 'en', legs: 'Transactions', took: 'failed after 30 s', none: 'no transaction', early: /earlier|later|expected/ },
    { locale: 'es', legs: 'Transacciones', took: 'falló tras 30 s', none: 'sin transacción', early: /antes|después|previsto/ },
    { locale: 'zh_CN', legs: '交易', took: '30 秒 后失败', none: '无交易', early: /更早|更晚|预期/ },
  ];
  for (const c of cases) {
    it(`FAILED says what it took, and its origin leg without a hash "no transaction" (${c.locale})`, () => {
      useLocale(c.locale);
      legsName = c.legs;
      const { receipt, view } = failed();
      expect(receipt.status).toBe('FAILED');
      render(view);
      const total = document.querySelector('.timeline-total')!.textContent!;
      expect(total).toBe(c.took);
      expect(total).not.toMatch(c.early);
      expect(originHash()).toBe(c.none);
    });
  }

  it('REFUNDED and ABORTED say what they took; only a success may be "earlier than expected"', () => {
    const refunded = scripted('refund', 10_000, 10 * 60_000);
    render(
      <ReceiptView
        intentId={refunded.id}
        receipt={refunded.receipt}
        tracked={tracked(refunded.receipt, { estimatedDuration: 600 })}
        now={refunded.now}
        onBack={noop}
      />,
    );
    expect(document.querySelector('.timeline-total')!.textContent).toBe('refunded after 50 s');
    cleanup();
    const aborted: IntentReceipt = {
      intentId: '0x2',
      status: 'ABORTED',
      originChainId: 42161,
      destinationChainId: 8453,
      summary: { startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:08Z' } as IntentReceipt['summary'],
      depositTransaction: { chainId: 42161, status: 'FAILED', txnHash: `0x${'ab'.repeat(27)}${'0'.repeat(10)}` },
    };
    render(<ReceiptView intentId="0x2" receipt={aborted} tracked={tracked(aborted, { estimatedDuration: 600 })} now={0} onBack={noop} />);
    expect(document.querySelector('.timeline-total')!.textContent).toBe('aborted after 8 s');
    expect(document.querySelector('[data-leg="deposit"] dd.mono')!.textContent).toBe('no transaction');
    cleanup();
    const quick = scripted('success', 1_000, 10 * 60_000);
    render(
      <ReceiptView
        intentId={quick.id}
        receipt={quick.receipt}
        tracked={tracked(quick.receipt, { estimatedDuration: 600 })}
        now={quick.now}
        onBack={noop}
      />,
    );
    expect(document.querySelector('.timeline-total')!.textContent).toBe('completed in 4 s (earlier than expected)');
  });

  it('a leg in flight without a hash still says "not on-chain yet"', () => {
    const { id, receipt, now } = scripted('failure', 10_000, 25_000); // origin relaying, placeholder hash
    render(<ReceiptView intentId={id} receipt={receipt} now={now} onBack={noop} />);
    expect(receipt.status).toBe('EXECUTING');
    expect(document.querySelector('[data-leg="origin"] dd.mono')!.textContent).toBe('not on-chain yet');
  });
});
