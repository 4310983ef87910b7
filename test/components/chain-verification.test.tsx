// @vitest-environment happy-dom
/**
 * On-chain verification as a user meets it (issue 28): the options page's per-chain choices (off by default; once on,
 * the chain's public RPC URL and finality depth, replaceable; Save asks in one prompt for exactly the RPC origins of
 * the chains turned on, and stores the choices in storage.local, never in storage.sync), the welcome page's optional
 * step after the first intent, and the popup's words: each leg's verdict in the receipt and "Verified on-chain" on
 * the tracked row, read from what the worker stored.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ReceiptView } from '@/components/ReceiptView';
import { TrackedIntentRow } from '@/components/TrackedIntentRow';
import { Options } from '@/entrypoints/options/Options';
import { useChainVerdicts } from '@/entrypoints/popup/hooks/useChainVerdicts';
import { Welcome } from '@/entrypoints/welcome/Welcome';
import { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { ChainVerdict, TrackedIntent } from '@/lib/store';
import { CHAIN_PREFERENCES_KEY, chainVerdictKey } from '@/lib/store/chain';

const ID = `0x${'3c'.repeat(32)}`;

/** A user who allows every prompt; the origins each prompt asked for. */
function allowingUser() {
  const granted = new Set<string>();
  const prompts: string[][] = [];
  Object.assign(fakeBrowser.permissions, {
    request: async (p: { origins?: string[] }) => {
      prompts.push(p.origins ?? []);
      for (const o of p.origins ?? []) granted.add(o);
      return true;
    },
    contains: async (p: { origins?: string[] }) => (p.origins ?? []).every((o) => granted.has(o)),
    remove: async () => true,
  });
  Object.assign(fakeBrowser.commands, { getAll: async () => [] });
  Object.assign(fakeBrowser.runtime, {
    getManifest: () => ({ manifest_version: 3, name: 'x', version: '1', permissions: [], optional_permissions: [] }),
    sendMessage: async (m: { type: string; intentId?: string }) =>
      m.type === 'track' ? { ok: true, added: true, intentId: ID } : { ok: true },
  });
  return prompts;
}

describe('on-chain verification in the options page', () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(cleanup);

  it('is off for every chain; turned on, Base shows its public RPC URL and depth, and Save asks for that origin with the service’s', async () => {
    const prompts = allowingUser();
    render(<Options />);
    const base = screen.getByRole('checkbox', { name: 'Verify on Base' }) as HTMLInputElement;
    expect(base.checked).toBe(false);
    expect(screen.queryByLabelText('RPC URL')).toBeNull();
    fireEvent.click(base);
    expect((screen.getByLabelText('RPC URL') as HTMLInputElement).value).toBe('https://mainnet.base.org');
    expect((screen.getByLabelText('Final after (confirmations)') as HTMLInputElement).value).toBe('60');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Verify on Arbitrum One' }));
    const [arbitrumUrl] = screen.getAllByLabelText('RPC URL').filter((e) => e.id === 'chain-rpc-42161');
    fireEvent.input(arbitrumUrl!, { target: { value: 'http://127.0.0.1:8545' } });
    fireEvent.input(screen.getByLabelText('Service URL'), { target: { value: 'https://svc.example.test' } });
    fireEvent.input(screen.getByLabelText('Access key'), { target: { value: 'sk_chain_test_1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('chain-status').textContent).toBe('On-chain verification saved.'));
    expect(prompts).toEqual([['https://svc.example.test/*', 'https://mainnet.base.org/*', 'http://127.0.0.1/*']]);
    // This device only: the defaults stored as absent, the user's own URL kept.
    expect((await fakeBrowser.storage.local.get(CHAIN_PREFERENCES_KEY))[CHAIN_PREFERENCES_KEY]).toEqual({
      8453: { enabled: true },
      42161: { enabled: true, rpcUrl: 'http://127.0.0.1:8545' },
    });
    expect(JSON.stringify(await fakeBrowser.storage.sync.get(null))).not.toContain('mainnet.base.org');
  });

  it('refuses an RPC URL that is not https, and an empty depth, in words, and saves nothing', async () => {
    const prompts = allowingUser();
    render(<Options />);
    fireEvent.input(screen.getByLabelText('Service URL'), { target: { value: 'https://svc.example.test' } });
    fireEvent.input(screen.getByLabelText('Access key'), { target: { value: 'sk_chain_test_1234' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Verify on Base' }));
    fireEvent.input(screen.getByLabelText('RPC URL'), { target: { value: 'http://rpc.example.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByTestId('save-status').textContent).toBe(
      'Base: the RPC URL must start with https:// (http:// only on this computer).',
    );
    fireEvent.input(screen.getByLabelText('RPC URL'), { target: { value: 'https://rpc.example.test/v2/k' } });
    // Out of 1…10,000 the browser's own check stops the form; left empty, the page says it.
    fireEvent.input(screen.getByLabelText('Final after (confirmations)'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByTestId('save-status').textContent).toBe('Base: confirmations must be a whole number from 1 to 10,000.'),
    );
    expect(prompts).toEqual([]);
    expect(await fakeBrowser.storage.local.get(CHAIN_PREFERENCES_KEY)).toEqual({});
  });
});

describe('on-chain verification in the welcome page', () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(cleanup);

  it('is offered once the first intent is tracked, and asks for exactly the RPC origin of the chain turned on', async () => {
    const prompts = allowingUser();
    render(<Welcome />);
    expect(screen.queryByRole('heading', { name: 'Verify on-chain (optional)' })).toBeNull();
    fireEvent.input(screen.getByLabelText('Intent ID'), { target: { value: ID } });
    fireEvent.click(screen.getByRole('button', { name: 'Track' }));
    await screen.findByRole('heading', { name: 'Verify on-chain (optional)' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Verify on Base' }));
    fireEvent.click(screen.getByRole('button', { name: 'Turn on verification' }));
    await waitFor(() => expect(screen.getByTestId('chain-status').textContent).toBe('On-chain verification saved.'));
    expect(prompts).toEqual([['https://mainnet.base.org/*']]);
    expect((await fakeBrowser.storage.local.get(CHAIN_PREFERENCES_KEY))[CHAIN_PREFERENCES_KEY]).toEqual({ 8453: { enabled: true } });
  });
});

const receipt = IntentReceipt.parse({
  intentId: ID,
  status: 'SUCCEEDED',
  originTransaction: { chainId: 42161, txnHash: `0x${'a1'.repeat(32)}`, status: 'SUCCEEDED' },
  destinationTransaction: { chainId: 8453, txnHash: `0x${'b2'.repeat(32)}`, status: 'SUCCEEDED' },
});
const verdict: ChainVerdict = {
  intentId: ID,
  verified: true,
  settled: true,
  legs: [
    { leg: 'origin', chainId: 42161, kind: 'final', text: 'Final on Arbitrum One · block 1,204 · 480 confirmations' },
    {
      leg: 'destination',
      chainId: 8453,
      kind: 'final',
      text: 'Final on Base · block 88 · 60 confirmations',
      transfer: 'Received 249.10 USDC at 0x7099…79C8',
    },
  ],
};

describe('on-chain verification in the popup', () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(cleanup);

  it('the receipt gives each leg what its chain says, and says "Verified on-chain"', () => {
    render(<ReceiptView intentId={ID} receipt={receipt} now={0} onBack={() => {}} verification={verdict} />);
    const legs = screen.getAllByTestId('leg-verification').map((e) => e.textContent);
    expect(legs).toEqual([
      'Final on Arbitrum One · block 1,204 · 480 confirmations',
      'Final on Base · block 88 · 60 confirmationsReceived 249.10 USDC at 0x7099…79C8',
    ]);
    expect(screen.getByRole('heading', { name: /Receipt/ }).textContent).toContain('Verified on-chain');
  });

  it('a line kept from an earlier worker life says "could not re-check"; one made for another transaction is not shown', () => {
    const kept: ChainVerdict = {
      ...verdict,
      verified: false,
      settled: false,
      legs: [
        { ...verdict.legs[0]!, txnHash: `0x${'a1'.repeat(32)}`, lastKnown: true },
        { ...verdict.legs[1]!, txnHash: `0x${'e'.repeat(64)}` },
      ],
    };
    render(<ReceiptView intentId={ID} receipt={receipt} now={0} onBack={() => {}} verification={kept} />);
    const legs = screen.getAllByTestId('leg-verification').map((e) => e.textContent);
    expect(legs).toEqual(['Final on Arbitrum One · block 1,204 · 480 confirmationsCould not re-check']);
  });

  it('a tracked row says "Verified on-chain" only when verified', () => {
    const intent: TrackedIntent = {
      intentId: ID,
      addedAt: 0,
      lastStates: [],
      phase: 'final',
      notification: 'shown',
      status: 'SUCCEEDED',
      receipt,
    };
    const { rerender } = render(<TrackedIntentRow intent={intent} now={0} onOpen={() => {}} onRemove={() => {}} />);
    expect(screen.queryByText('Verified on-chain')).toBeNull();
    rerender(<TrackedIntentRow intent={intent} now={0} onOpen={() => {}} onRemove={() => {}} verified />);
    expect(screen.getByText('Verified on-chain')).toBeTruthy();
  });

  it('reads the verdicts the worker stored, and again when it stores a new one', async () => {
    let seen: Map<string, ChainVerdict> | undefined;
    function Probe() {
      seen = useChainVerdicts([ID]);
      return null;
    }
    render(<Probe />);
    await waitFor(() => expect(seen?.size).toBe(0));
    await fakeBrowser.storage.local.set({ [chainVerdictKey(ID)]: verdict });
    await waitFor(() => expect(seen?.get(ID)?.verified).toBe(true));
  });
});
