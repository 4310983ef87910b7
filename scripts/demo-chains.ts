/**
 * The demo's on-chain lines: for each demo intent played on the local chains, the receipt as the service gives it and,
 * leg by leg, what the chain says, checked by the extension's own verifier (lib/chain) over JSON-RPC. Plain English
 * on the terminal (the extension's words go through _locales).
 */
import { formatUnits } from 'viem';
import { IntentReceipt } from '../lib/api/schemas/receipt';
import { RpcBudget } from '../lib/chain/budget';
import { KNOWN_CHAINS } from '../lib/chain/known-chains';
import { verifiableLegs } from '../lib/chain/legs';
import { LegVerifier } from '../lib/chain/verifier';
import type { LegCheck } from '../lib/chain/verify';
import { realTimers } from '../lib/platform';
import type { Simulator } from '../simulator/server';

/** Confirmations at which the demo calls a leg final on its local chains. */
const DEMO_FINALITY_DEPTH = 5;

/** One line per leg verdict, e.g. "Confirmed on Base · block 12 · 3 confirmations · received 249.10 USDC at 0x7099…79c8". */
function words(check: LegCheck, chainId: number, symbol: string, decimals: number): string {
  const chain = KNOWN_CHAINS[chainId]?.name ?? `chain ${chainId}`;
  switch (check.kind) {
    case 'not-seen':
      return `Not on ${chain} yet`;
    case 'missing':
      return `Not found on ${chain}, although the service calls it mined`;
    case 'reorged':
      return `Re-orged out of ${chain} (was in block ${check.blockNumber})`;
    case 'reverted':
      return `Reverted on ${chain} · block ${check.blockNumber}`;
    default: {
      const confirmations = `${check.confirmations} confirmation${check.confirmations === 1 ? '' : 's'}`;
      const head = `${check.kind === 'final' ? 'Final' : 'Confirmed'} on ${chain} · block ${check.blockNumber} · ${confirmations}`;
      const t = check.transfer;
      if (!t) return head;
      const to = `${t.expected.to.slice(0, 6)}…${t.expected.to.slice(-4)}`;
      const got = `${formatUnits(t.amount, decimals)} ${symbol}`;
      return `${head} · ${t.kind === 'received' ? `received ${got} at ${to}` : `${t.kind === 'none' ? 'nothing' : got} arrived at ${to}, the receipt says ${formatUnits(t.expected.amount, decimals)}`}`;
    }
  }
}

/** Prints each chain intent's receipt status and its legs' verdicts. */
export async function printVerification(sim: Simulator, intentIds: readonly string[]): Promise<void> {
  const urls = sim.rpcUrls();
  const verifier = new LegVerifier({
    timers: realTimers,
    fetch,
    monotonic: () => performance.now(),
    // Local chains make a block a second: a depth of 5 lets the demo show legs becoming final.
    setting: (id) => (urls[id] ? { rpcUrl: urls[id]!, finalityDepth: DEMO_FINALITY_DEPTH } : undefined),
    budget: new RpcBudget({ monotonic: () => performance.now(), burst: 40 }),
  });
  for (const intentId of intentIds) {
    const res = await fetch(`${sim.url}/rpc/Svc/GetIntentReceipt`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Access-Key': sim.accessKey },
      body: JSON.stringify({ intentId }),
    });
    const receipt = IntentReceipt.parse(((await res.json()) as { intentReceipt: unknown }).intentReceipt);
    const legs = verifiableLegs(receipt).filter((l) => urls[l.chainId]);
    if (legs.length === 0 || !sim.intents().find((i) => i.intentId === intentId)?.onChain) continue;
    console.log(`⛓  ${intentId.slice(0, 10)}… service says ${receipt.status}; the chains say:`);
    for (const ref of legs) {
      const result = await verifier.verify(ref);
      const meta = ref.leg === 'destination' ? receipt.summary?.destinationTokenMetadata : receipt.summary?.originTokenMetadata;
      const line =
        'check' in result ? words(result.check, ref.chainId, meta?.symbol ?? '', meta?.decimals ?? 18) : `not checked (${result.skipped})`;
      console.log(`   ${ref.leg.padEnd(11)} ${line}`);
    }
  }
}
