/**
 * The house rules (docs/architecture.md), checked in CI (npm run depcheck):
 * data flows one way and only the adapters know their infrastructure.
 */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'contract-is-leaf',
      comment: 'src/contract is the API as data; it imports nothing of ours.',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^(src|jobs)/', pathNot: '^src/contract/' },
    },
    {
      name: 'sandbox-only-contract',
      comment: 'The sandbox imports only src/contract (plus its own files).',
      severity: 'error',
      from: { path: '^src/sandbox/' },
      to: { path: '^(src|jobs)/', pathNot: '^src/(contract|sandbox)/' },
    },
    {
      name: 'nobody-imports-sandbox',
      comment: 'Only the CLI (and tests) may start the sandbox.',
      severity: 'error',
      from: { path: '^(src|jobs)/', pathNot: '^src/(sandbox|cli)/' },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'only-fleet-imports-bullmq',
      comment: 'BullMQ is how the fleet queues work; the core and the in-process runner never load it.',
      severity: 'error',
      from: { path: '^(src|jobs)/', pathNot: '^src/fleet/' },
      to: { path: 'node_modules/bullmq/' },
    },
    {
      name: 'core-has-no-infrastructure',
      comment: 'src/sync and jobs/ receive ports through the job context; no redis, no fs.',
      severity: 'error',
      from: { path: '^(src/sync|jobs)/' },
      to: { path: ['node_modules/(bullmq|ioredis)/', '^(fs|node:fs|fs/promises|node:fs/promises)$'] },
    },
    {
      name: 'nothing-below-ops-imports-it',
      comment:
        'src/ops (metrics, alerts, admin server) implements ports the core declares (sync/meter.ts, sync/alerts.ts); only the CLI wires it in.',
      severity: 'error',
      from: { path: '^(src|jobs)/', pathNot: '^src/(ops|cli)/' },
      to: { path: '^src/ops/' },
    },
    {
      name: 'time-is-leaf',
      comment: 'src/time (clock, deadlines) is used by every layer, so it imports nothing of ours.',
      severity: 'error',
      from: { path: '^src/time/' },
      to: { path: '^(src|jobs)/', pathNot: '^src/time/' },
    },
    {
      name: 'kinds-through-the-registry',
      comment:
        "Outside src/kinds a kind is reached only through the registry (and the definition and field-spec types): nothing lists kinds, calls a kind's strategy directly or knows a kind's settings (a kind declares its feed keys and chunk settings in its definition).",
      severity: 'error',
      from: { path: '^(src|jobs)/', pathNot: '^src/kinds/' },
      to: {
        path: '^src/kinds/',
        pathNot: '^src/kinds/(registry|definition|field-spec)[.]ts$',
      },
    },
    {
      name: 'kind-modules-never-import-the-registry',
      comment:
        'The registry imports every kind module; a kind module that imported it back would be a cycle in the making.',
      severity: 'error',
      from: { path: '^src/kinds/[^/]+/' },
      to: { path: '^src/kinds/registry[.]ts$' },
    },
    {
      name: 'kind-data-is-leaf',
      comment:
        "A kind's field table and target schema are data: they import only the contract and the field-spec types.",
      severity: 'error',
      from: { path: '^src/kinds/(field-spec|[^/]+/(fields|bank-account-target))[.]ts$' },
      to: { path: '^(src|jobs)/', pathNot: '^src/(contract/|kinds/field-spec[.]ts$)' },
    },
    {
      name: 'exports-read-through-a-location',
      comment:
        'Readers of exports (encoding check, decode, formats) read through a Location (src/sources/locations), so the same reader serves the local disk, SFTP and S3; only the local location and the glob touch the file system.',
      severity: 'error',
      from: { path: '^src/sources/', pathNot: '^src/sources/(locations/|glob[.]ts$)' },
      to: { path: '^(fs|node:fs|fs/promises|node:fs/promises)$' },
    },
    {
      name: 'only-locations-load-remote-clients',
      comment:
        'The SFTP and S3 clients are how a Location reaches its files; nothing else loads them, so the core and the runners stay transport-agnostic.',
      severity: 'error',
      from: { path: '^(src|jobs)/', pathNot: '^src/sources/locations/' },
      to: { path: 'node_modules/(ssh2|ssh2-sftp-client|@aws-sdk|@smithy)/' },
    },
    {
      name: 'browser-helper-stands-alone',
      comment:
        "src/embed/browser runs in partners' pages: it imports nothing outside its folder (no package, no node module), so it ships as it is.",
      severity: 'error',
      from: { path: '^src/embed/browser/' },
      to: { pathNot: '^src/embed/browser/' },
    },
    {
      name: 'only-cli-wires',
      comment: 'Nothing imports the CLI.',
      severity: 'error',
      from: { path: '^(src|jobs)/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
