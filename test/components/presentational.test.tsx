// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { useState } from 'preact/hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { ReceiptView } from '@/components/ReceiptView';
import { RouteList, safeLogo } from '@/components/RouteList';
import { Tabs } from '@/components/Tabs';
import { TrackedIntentRow } from '@/components/TrackedIntentRow';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { TrackedIntent } from '@/lib/store';

afterEach(cleanup);
const noop = () => {};
const HASH = `0x${'ab'.repeat(32)}`;
const PLACEHOLDER = `0x${'cd'.repeat(27)}${'0'.repeat(10)}`;

const receipt: IntentReceipt = {
  intentId: '0x1',
  status: 'FAILED',
  originChainId: 42161,
  destinationChainId: 999999,
  depositTransaction: { chainId: 42161, status: 'SUCCEEDED', txnHash: HASH, txnMinedAt: '2026-11-21T10:00:00Z', tokenAmount: '250000000' },
  originTransaction: { chainId: 42161, status: 'REVERTED', txnHash: PLACEHOLDER, statusReason: '<b>slippage</b>' },
  destinationTransaction: { chainId: 999999, status: 'TELEPORTED', txnHash: HASH },
  summary: { originTokenAmount: '250000000', originTokenMetadata: { symbol: 'USDC', decimals: 6 } },
};

describe('ReceiptView', () => {
  it('shows each leg, links only real hashes on known chains, and renders reasons as text', () => {
    render(<ReceiptView intentId="0x1" receipt={receipt} now={Date.now()} onBack={noop} onTrack={noop} />);
    const legs = within(screen.getByRole('list', { name: 'Transactions' })).getAllByRole('listitem');
    expect(legs.map((l) => l.getAttribute('data-leg'))).toEqual(['deposit', 'origin', 'destination']);
    expect(within(legs[0]!).getByRole('link').getAttribute('href')).toBe(`https://arbiscan.io/tx/${HASH}`);
    expect(within(legs[0]!).getByText('250.00 USDC')).toBeTruthy();
    expect(within(legs[1]!).queryByRole('link')).toBeNull();
    expect(within(legs[1]!).getByText('no transaction')).toBeTruthy();
    expect(within(legs[2]!).queryByRole('link')).toBeNull();
    expect(within(legs[2]!).getByText('TELEPORTED')).toBeTruthy();
    expect(within(legs[2]!).getByText('Chain 999999')).toBeTruthy();
    expect(screen.getAllByText('<b>slippage</b>').length).toBeGreaterThan(0);
    expect(document.querySelector('b')).toBeNull();
    expect(screen.getByRole('button', { name: 'Track' })).toBeTruthy();
  });

  it('shows a loading state, and an error with the settings button', () => {
    const { rerender } = render(<ReceiptView intentId="0x1" now={Date.now()} onBack={noop} />);
    expect(screen.getByText('Loading the receipt…')).toBeTruthy();
    rerender(
      <ReceiptView
        intentId="0x1"
        now={Date.now()}
        onBack={noop}
        onOpenSettings={noop}
        error={{ text: 'Key rejected.', openSettings: true }}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('Key rejected.');
    expect(screen.getByRole('button', { name: 'Open settings' })).toBeTruthy();
  });
});

describe('RouteList', () => {
  it('shows https logos only, without a referrer', () => {
    expect(safeLogo('https://x.example/a.png')).toBe('https://x.example/a.png');
    for (const bad of ['http://x.example/a.png', 'javascript:alert(1)', 'data:image/png;base64,AA', 'nonsense', undefined])
      expect(safeLogo(bad)).toBeUndefined();
    const token = { chainId: 1, address: '0x1', name: 'USD Coin', symbol: 'USDC', decimals: 6, featured: true, featureIndex: 1 };
    render(
      <RouteList
        tokens={[
          { ...token, logoUri: 'https://x.example/usdc.png' },
          { ...token, address: '0x2', symbol: 'BAD', logoUri: 'javascript:alert(1)' },
        ]}
      />,
    );
    const imgs = document.querySelectorAll('img');
    expect(imgs).toHaveLength(1);
    expect(imgs[0]!.getAttribute('src')).toBe('https://x.example/usdc.png');
    expect(imgs[0]!.getAttribute('referrerpolicy')).toBe('no-referrer');
  });
});

describe('Tabs', () => {
  function Harness() {
    const [active, setActive] = useState<'a' | 'b' | 'c'>('a');
    return (
      <Tabs
        tabs={[
          { id: 'a', label: 'A' },
          { id: 'b', label: 'B' },
          { id: 'c', label: 'C' },
        ]}
        active={active}
        onChange={setActive}
      >
        <p>panel {active}</p>
      </Tabs>
    );
  }
  it('moves with the arrow keys and keeps only the active tab in the tab order', () => {
    render(<Harness />);
    const tabA = screen.getByRole('tab', { name: 'A' });
    expect(tabA.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tabA, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'B' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toBe('panel b');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'B' }), { key: 'End' });
    expect(screen.getByRole('tab', { name: 'C' }).getAttribute('tabindex')).toBe('0');
    expect(screen.getByRole('tab', { name: 'A' }).getAttribute('tabindex')).toBe('-1');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'C' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tabpanel').textContent).toBe('panel a');
  });
});

describe('TrackedIntentRow icons', () => {
  it('draws the mute bell and the remove cross as SVG, with the words on the buttons', () => {
    const intent: TrackedIntent = { intentId: `0x${'ef'.repeat(32)}`, addedAt: 0, lastStates: [], phase: 'tracking', notification: 'none' };
    const muted: boolean[] = [];
    const { rerender } = render(
      <ul>
        <TrackedIntentRow intent={intent} now={0} onOpen={noop} onRemove={noop} onMute={(m) => muted.push(m)} />
      </ul>,
    );
    const bell = screen.getByRole('button', { name: `Mute notifications of intent ${intent.intentId}` });
    expect(bell.querySelector('svg[data-icon="bell"]')?.getAttribute('aria-hidden')).toBe('true');
    expect(bell.textContent).toBe(`Mute notifications of intent ${intent.intentId}`); // no glyph beside the words
    bell.click();
    rerender(
      <ul>
        <TrackedIntentRow intent={intent} now={0} onOpen={noop} onRemove={noop} muted onMute={(m) => muted.push(m)} />
      </ul>,
    );
    expect(
      screen.getByRole('button', { name: `Mute notifications of intent ${intent.intentId}` }).querySelector('svg[data-icon="bell-off"]'),
    ).not.toBeNull();
    const remove = screen.getByRole('button', { name: `Remove intent ${intent.intentId}` });
    expect(remove.querySelector('svg[data-icon="close"]')).not.toBeNull();
    expect(muted).toEqual([true]);
  });
});
