/**
 * `npm run cycles`: fails on any import cycle among the project's own modules (type-only imports included, so that a
 * newcomer can read the modules bottom-up), and on any import that runs up the layers of `lib/` (docs/architecture.md):
 * a module may import its own layer and the layers below it, never one above. Resolves the `@/` alias as WXT does.
 */

/** The layers of `lib/`, bottom first; each entry is a regular expression of the paths in that layer. */
const LAYERS = [
  ['core', '^lib/(i18n|platform)\\.ts$|^lib/(time|core)/'],
  ['api', '^lib/api/'],
  ['data', '^lib/(eta|query|store|format|chain)/|^lib/(messages|commands|permissions)\\.ts$'],
  ['notify', '^lib/notify/'],
  ['tracker', '^lib/tracker/'],
  ['worker', '^lib/worker/'],
  ['root', '^lib/(background|wire)\\.ts$'],
];

/** One rule per layer: nothing in it imports a layer above it; nothing in lib/ imports components/ or entrypoints/. */
const layerRules = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `layer-${name}-points-down`,
  severity: 'error',
  comment: `lib/ layers only point down: ${name} may not import ${LAYERS.slice(i + 1)
    .map(([n]) => n)
    .join(', ')}. Move what both sides need down (lib/time, lib/core).`,
  from: { path },
  to: {
    path: LAYERS.slice(i + 1)
      .map(([, p]) => `(${p})`)
      .join('|'),
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'lib-not-up-to-ui',
      severity: 'error',
      comment: 'lib/ is below components/ and entrypoints/.',
      from: { path: '^lib/' },
      to: { path: '^(components|entrypoints)/' },
    },
    {
      name: 'scripts-not-into-test',
      severity: 'error',
      comment: 'scripts/ never imports test/: what both use lives in a module of its own.',
      from: { path: '^scripts/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: split the shared part into a module of its own.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.output|\\.wxt)/' },
    tsPreCompilationDeps: true,
    // WXT's generated tsconfig gives `@/` paths relative to `.wxt/` without a baseUrl, which the paths plugin misreads.
    tsConfig: { fileName: '.dependency-cruiser.tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
  },
};
