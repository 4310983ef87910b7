/**
 * Real local chains for tests and the demo: `anvil` from the `@foundry-rs/anvil` npm package (its binary ships in the
 * platform package, e.g. `@foundry-rs/anvil-linux-amd64`; nothing is downloaded at run time), started with the chain id
 * of a known chain on a free port, with the repository's ERC-20 (simulator/chain/contracts/TestToken.sol, OpenZeppelin's
 * ERC20, compiled with solc-js from npm) deployed on it. Each instance is stopped by its own process id.
 *
 * anvil's accounts are unlocked: transactions are sent from them by address (`eth_sendTransaction`), no key needed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hash,
  type Hex,
  http,
  type PublicClient,
  type TestClient,
  type WalletClient,
} from 'viem';

const require = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));
const TOKEN_SOURCE = join(HERE, 'contracts', 'TestToken.sol');

/** anvil's first three default accounts (the `test test … junk` mnemonic), unlocked on every instance. */
export const ACCOUNTS = {
  /** Deploys the tokens and plays the solver: sends the destination transfers. */
  deployer: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  /** The intent's owner and `destinationToAddress`. */
  user: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  /** The intent address, where deposits go. */
  intent: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
} as const satisfies Record<string, Address>;

/** The anvil binary of this platform. Throws when the platform package is not installed. */
export function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`);
  return join(dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

/** The compiled TestToken: ABI and creation bytecode. */
export interface TokenArtifact {
  abi: Abi;
  bytecode: Hex;
}

let artifact: TokenArtifact | undefined;

/** Every anvil this process started and has not stopped: killed when the process exits, whatever ends it. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Compiles simulator/chain/contracts/TestToken.sol with solc-js (about 2 s), once per process, kept in the OS temp
 * folder by the hash of the source and the compiler's version (a second test file or demo run reads it back).
 * Throws with the compiler's messages on an error.
 */
export function compileToken(): TokenArtifact {
  if (artifact) return artifact;
  const source = readFileSync(TOKEN_SOURCE, 'utf8');
  const solcVersion = (require('solc/package.json') as { version: string }).version;
  const cacheDir = join(tmpdir(), 'svc-tracker-solc');
  const cacheFile = join(cacheDir, `${createHash('sha256').update(`${solcVersion}\n${source}`).digest('hex')}.json`);
  if (existsSync(cacheFile)) {
    artifact = JSON.parse(readFileSync(cacheFile, 'utf8')) as TokenArtifact;
    return artifact;
  }
  const solc = require('solc') as {
    compile(input: string, callbacks: { import(path: string): { contents: string } | { error: string } }): string;
  };
  const input = {
    language: 'Solidity',
    sources: { 'TestToken.sol': { content: source } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { TestToken: ['abi', 'evm.bytecode.object'] } } },
  };
  const findImport = (path: string) => {
    try {
      return { contents: readFileSync(require.resolve(path), 'utf8') };
    } catch (error) {
      return { error: String(error) };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  const compiled = output.contracts?.['TestToken.sol']?.TestToken;
  if (errors.length > 0 || !compiled) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n') || 'no output'}`);
  artifact = { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` };
  mkdirSync(cacheDir, { recursive: true });
  // Written aside, then renamed: test files compiling side by side never read a half-written artifact.
  const partial = `${cacheFile}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(artifact));
  renameSync(partial, cacheFile);
  return artifact;
}

/** One running anvil. */
export interface Anvil {
  chainId: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  pid: number;
  public: PublicClient;
  wallet: WalletClient;
  test: TestClient<'anvil'>;
  /** Stops this instance (by its pid) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts anvil with `chainId` on a free port (anvil picks it: `--port 0`; its banner names it) and waits until it
 * answers. Each block is mined when a transaction arrives (automine), as anvil does by default. Rejects after
 * `timeoutMs` (default 15 s) or when anvil exits first.
 */
export async function startAnvil(chainId: number, timeoutMs = 15_000): Promise<Anvil> {
  const child = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(chainId)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`anvil did not start within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('error', fail);
    const onEarlyExit = (code: number | null) => fail(new Error(`anvil exited (${code}) before listening:\n${out}`));
    child.once('exit', onEarlyExit);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Listening on 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.off('exit', onEarlyExit);
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume(); // keep draining anvil's log so that it never blocks on a full pipe
        resolve(Number(m[1]));
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
  });
  return clientsOf(chainId, `http://127.0.0.1:${port}`, child);
}

function clientsOf(chainId: number, url: string, child: ChildProcess): Anvil {
  const chain = {
    id: chainId,
    name: `anvil ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  };
  // A local anvil answers in milliseconds; 60 s (viem's default is 10 s) lets a send ride out a stall of the loaded
  // machine instead of failing, which would leave its leg a placeholder (./chains.ts).
  const transport = http(url, { retryCount: 0, timeout: 60_000 });
  return {
    chainId,
    url,
    pid: child.pid!,
    public: createPublicClient({ chain, transport, pollingInterval: 50 }),
    wallet: createWalletClient({ chain, transport }),
    test: createTestClient({ chain, transport, mode: 'anvil' }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        process.kill(child.pid!, 'SIGTERM');
      }),
  };
}

/** A deployed TestToken on one anvil. */
export interface Token {
  address: Address;
  abi: Abi;
}

/** Deploys TestToken ("USD Coin", "USDC", 6 decimals) from the deployer and mints it `supply` (raw units). */
export async function deployToken(anvil: Anvil, supply = 10n ** 15n): Promise<Token> {
  const { abi, bytecode } = compileToken();
  const hash = await anvil.wallet.deployContract({ abi, bytecode, args: ['USD Coin', 'USDC'], account: ACCOUNTS.deployer, chain: null });
  const receipt = await anvil.public.waitForTransactionReceipt({ hash });
  const token = { address: receipt.contractAddress!, abi };
  await mined(
    anvil,
    await anvil.wallet.writeContract({
      ...token,
      functionName: 'mint',
      args: [ACCOUNTS.deployer, supply],
      account: ACCOUNTS.deployer,
      chain: null,
    }),
  );
  return token;
}

/**
 * Sends `amount` (raw units) of `token` from `from` to `to` and returns the hash at once (mined at once under
 * automine). `revert: true` sends it with a fixed gas limit and an amount above the sender's balance, so that the
 * transaction is mined and reverts (viem would refuse it at gas estimation otherwise).
 */
export async function sendTransfer(
  anvil: Anvil,
  token: Token,
  to: Address,
  amount: bigint,
  options: { from?: Address; revert?: boolean } = {},
): Promise<Hash> {
  const from = options.from ?? ACCOUNTS.deployer;
  const value = options.revert ? 10n ** 30n : amount;
  return anvil.wallet.writeContract({
    ...token,
    functionName: 'transfer',
    args: [to, value],
    account: from,
    chain: null,
    ...(options.revert ? { gas: 100_000n } : {}),
  });
}

/** Waits for the receipt of `hash` (throws when it is not mined within 5 s). */
export async function mined(anvil: Anvil, hash: Hash) {
  return anvil.public.waitForTransactionReceipt({ hash, timeout: 5_000, pollingInterval: 20 });
}

/** Mines `blocks` empty blocks. */
export async function mine(anvil: Anvil, blocks: number): Promise<void> {
  await anvil.test.mine({ blocks });
}

/**
 * Re-orgs the last `depth` blocks away (`anvil_reorg`): they are replaced by as many new blocks, so the transactions
 * they held are no longer on the canonical chain.
 */
export async function reorg(anvil: Anvil, depth: number): Promise<void> {
  await (anvil.test.request as (args: { method: string; params: unknown[] }) => Promise<unknown>)({
    method: 'anvil_reorg',
    params: [depth, []],
  });
}

/** Starts one anvil per chain id and deploys the token on each. On a failure, stops the ones already started. */
export async function startChains(chainIds: readonly number[]): Promise<Array<{ anvil: Anvil; token: Token }>> {
  const started: Anvil[] = [];
  try {
    for (const id of chainIds) started.push(await startAnvil(id));
    return await Promise.all(started.map(async (anvil) => ({ anvil, token: await deployToken(anvil) })));
  } catch (error) {
    await Promise.all(started.map((a) => a.stop()));
    throw error;
  }
}
