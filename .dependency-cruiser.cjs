// svctrail's layers, checked by dependency-cruiser (`npm run lint` runs `depcruise src`).
// This file is the short form of docs/architecture.md: it says what may use what, and CI fails
// when an import breaks it. Fix a violation by moving the code to where it belongs, not by an
// exception here.
//
//   domain/          the Service model, its decider and evolve, codecs, validation, field
//                    management, allocation: pure code. It imports nothing else of svctrail.
//   patch/           JSON, merge, strategic-merge and apply patches: a pure engine over the
//                    domain's codec. It imports the domain and nothing else of svctrail.
//   store/ports/     what the rest needs from storage, owned by no engine (interfaces, DI tokens,
//                    the errors a write ends in). It imports the domain only. The edges below
//                    reach a repository through its port; only the store's providers name the
//                    implementation.
//   store/, store/postgres/, projections/
//                    the engines and the projections they run inside a write. They import the
//                    domain, the ports and each other; never the surfaces that use them.
//   everything else  commands, queries, history, watch, feed, kube-api, browser, cli, server,
//                    config, ...: edges that use the layers above.
//
// Every rule counts type-only imports too: a layer that names another's types depends on it.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle between any two files of src/: a cycle makes load order matter and hides which module owns what.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      comment: 'domain/ is the pure model: it imports only itself (and npm packages), so everything else can use it.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'patch-is-pure',
      comment: 'patch/ is a pure engine over the domain: it imports only itself and domain/.',
      severity: 'error',
      from: { path: '^src/patch/' },
      to: { path: '^src/', pathNot: '^src/(patch|domain)/' },
    },
    {
      name: 'ports-import-the-domain-only',
      comment: 'store/ports/ is owned by no engine: it imports the domain and other ports, never an implementation.',
      severity: 'error',
      from: { path: '^src/store/ports/' },
      to: { path: '^src/', pathNot: '^src/(domain|store/ports)/' },
    },
    {
      name: 'storage-never-imports-its-users',
      comment:
        'The store, its engines and the projections import the domain and the ports; never the surfaces built on them ' +
        '(history/, watch/, kube-api/, config/, browser/, cli/, server/). What both need belongs in the domain or a port.',
      severity: 'error',
      from: { path: '^src/(store|projections)/' },
      to: { path: '^src/(history|watch|kube-api|config|browser|cli|server)/' },
    },
    {
      name: 'consumers-depend-on-the-port',
      comment:
        "Outside the store, the history repositories, the watch's change log and the Events reader are reached through " +
        'their port in store/ports/ (interface, contract types, DI token), never their implementation file: only the ' +
        "store's providers construct them.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: {
        path: '^src/store/(service-change-log|change-history-repository|condition-history-repository|ingress-history-repository|kube-event-log|kube-event-history-repository|activity-summary-repository)[.]ts$',
      },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Unit specs sit next to the code and may reach across layers to build their fixtures.
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
