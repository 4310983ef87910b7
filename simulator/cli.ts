/**
 * `npm run simulator -- [--port N] [--wait-timeout-ms N] [--step-ms N] [--access-key K] [--demo N]
 *   [--busy-per-hour N [--busy-backfill-ms N]] [--not-in-history] [--chains]`
 *
 * Starts the simulator and prints one JSON line `{"url", "accessKey", "restrictedAccessKey", "intents"}` when it is
 * ready (`intents`: the ids of the `--demo` intents, alternately success and failure). Port 0 (the default) picks
 * any free port. `--busy-per-hour` starts the busy-project stream of other owners' intents (`busy.ts`; backfill
 * default one hour); `--not-in-history`: GetIntentHistory never lists the intents made through the control API;
 * `--chains`: starts the local chains (./chains.ts; the JSON line then has `rpcUrls`), the `--demo` intents are
 * chain-success and chain-lagging, and the control API takes the chain scenarios.
 * Stops on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { ChainWorld } from './chains';
import { startSimulator } from './server';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'wait-timeout-ms': { type: 'string', default: '20000' },
    'step-ms': { type: 'string', default: '1500' },
    'access-key': { type: 'string' },
    demo: { type: 'string', default: '0' },
    'busy-per-hour': { type: 'string' },
    'busy-backfill-ms': { type: 'string' },
    'not-in-history': { type: 'boolean', default: false },
    chains: { type: 'boolean', default: false },
  },
});

const number = (name: string, text: string | undefined) => {
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`--${name} must be a non-negative number, got ${text}`);
    process.exit(2);
  }
  return n;
};

const sim = await startSimulator({
  port: number('port', values.port),
  host: values.host,
  waitTimeoutMs: number('wait-timeout-ms', values['wait-timeout-ms']),
  stepMs: number('step-ms', values['step-ms']),
  ...(values['access-key'] ? { accessKey: values['access-key'] } : {}),
  ...(values['busy-per-hour'] !== undefined
    ? {
        busy: {
          perHour: number('busy-per-hour', values['busy-per-hour']),
          ...(values['busy-backfill-ms'] !== undefined ? { backfillMs: number('busy-backfill-ms', values['busy-backfill-ms']) } : {}),
        },
      }
    : {}),
  scriptedInHistory: !values['not-in-history'],
  ...(values.chains ? { chains: await ChainWorld.start() } : {}),
});
const scenarios = values.chains ? (['chain-success', 'chain-lagging'] as const) : (['success', 'failure'] as const);
const intents = Array.from({ length: number('demo', values.demo) }, (_, i) => sim.createIntent(scenarios[i % 2]!));
const rpcUrls = sim.rpcUrls();
console.log(
  JSON.stringify({
    url: sim.url,
    accessKey: sim.accessKey,
    restrictedAccessKey: sim.restrictedAccessKey,
    intents,
    ...(values.chains ? { rpcUrls } : {}),
  }),
);

const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
