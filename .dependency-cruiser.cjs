/**
 * `npm run cycles`: fails on any import cycle among the project's own modules (type-only imports included, so that a
 * newcomer can read the modules bottom-up). Resolves the `@/` alias as WXT does.
 */
module.exports = {
  forbidden: [
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
