/**
 * The house rules (docs/architecture.md), checked in CI (npm run depcheck):
 * data flows one way and only the adapters know their infrastructure.
 */

/**
 * The folder picture: which folders each folder may import (besides its own files). A folder is
 * `jobs/` or a top-level folder of src with its subfolders, except src/kinds, which is three kinds
 * of folder: each kind's folder (`kinds/<kind>`, the common list under `kinds/*`, a kind's extra
 * imports under its name), the registry (`kinds/registry`: src/kinds/registry.ts, the kinds'
 * wiring: it alone imports the kind folders, and generic code reaches kinds through it) and the
 * rest of the root (`kinds`: the definition types every kind implements). Kinds are finer because
 * they are the seam: the core reads the registry, the registry the kinds, the kinds the core's
 * ports; one folder for all of them would hide whether a kind's folder and the core know each
 * other both ways.
 * No two folders may import each other (checked below when this file loads); an import between
 * folders that the picture does not list fails 'folders-import-one-way': add the folder here
 * unless it imports yours, and then move the type to where it belongs instead.
 */
const FOLDER_IMPORTS = {
  check: ['config', 'kinds/registry', 'sources', 'sync', 'time'],
  cli: [
    'check',
    'client',
    'config',
    'console',
    'embed',
    'fleet',
    'gate',
    'in-process',
    'init',
    'kinds',
    'kinds/registry',
    'logging',
    'ops',
    'report-files',
    'sandbox',
    'sources',
    'sync',
    'time',
  ],
  client: ['contract', 'logging', 'time'],
  config: ['kinds/registry', 'sources'],
  console: ['report-files'],
  contract: [],
  embed: ['client', 'config', 'contract'],
  fleet: [
    'config',
    'console',
    'contract',
    'gate',
    'in-process',
    'jobs',
    'logging',
    'report-files',
    'sources',
    'sync',
    'time',
  ],
  gate: ['client', 'time'],
  init: ['config', 'contract', 'kinds/registry', 'sources', 'time'],
  'in-process': [
    'client',
    'config',
    'gate',
    'jobs',
    'kinds/registry',
    'logging',
    'report-files',
    'sources',
    'sync',
    'time',
  ],
  jobs: ['config', 'contract', 'kinds/registry', 'sources', 'sync', 'time'],
  kinds: ['config', 'sources', 'sync'],
  'kinds/registry': ['kinds', 'kinds/*'],
  'kinds/*': ['client', 'config', 'contract', 'kinds', 'sources', 'sync'],
  'kinds/transactions': ['kinds/bank-accounts'],
  logging: [],
  ops: ['client', 'config', 'console', 'fleet', 'gate', 'logging', 'report-files', 'sync', 'time'],
  'report-files': ['sync'],
  sandbox: ['contract'],
  sources: ['contract', 'kinds/registry', 'logging', 'time'],
  sync: ['client', 'config', 'contract', 'kinds/registry', 'logging', 'sources', 'time'],
  time: [],
};

/** The kind folders there are (src/kinds/<kind>/): each one is a folder of the picture. */
const KIND_FOLDERS = require('node:fs')
  .readdirSync(`${__dirname}/src/kinds`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `kinds/${entry.name}`);
const isKind = (folder) => KIND_FOLDERS.includes(folder);

/** The path pattern of a folder of the picture. */
function folderPath(folder) {
  if (folder === 'jobs') return '^jobs/';
  if (folder === 'kinds/registry') return '^src/kinds/registry[.]ts$';
  if (folder === 'kinds') return '^src/kinds/(?!registry[.]ts$)[^/]+[.]ts$';
  if (folder === 'kinds/*') return '^src/kinds/[^/]+/';
  return `^src/${folder}/`;
}

/** What a folder may import, `kinds/*` spelt out: a kind's folder, what every kind's may plus its own extras. */
function importsOf(folder) {
  const listed = [...(isKind(folder) ? FOLDER_IMPORTS['kinds/*'] : []), ...(FOLDER_IMPORTS[folder] ?? [])];
  return listed.flatMap((other) => (other === 'kinds/*' ? KIND_FOLDERS : [other]));
}

// Two folders that may import each other are one tangle, not two folders: refuse such a picture.
for (const folder of [...Object.keys(FOLDER_IMPORTS).filter((f) => f !== 'kinds/*'), ...KIND_FOLDERS])
  for (const other of importsOf(folder))
    if (importsOf(other).includes(folder))
      throw new Error(
        `.dependency-cruiser.cjs: ${folder} and ${other} may import each other; one of them must not`,
      );

const KIND_EXTRAS = Object.keys(FOLDER_IMPORTS).filter(isKind);
const oneWay = (comment, from, to) => ({
  name: 'folders-import-one-way',
  comment,
  severity: 'error',
  from,
  to,
});
/** Per folder of the picture: it imports its own files and the folders it lists, nothing else of ours. */
const folderRules = [
  ...Object.keys(FOLDER_IMPORTS)
    .filter((folder) => folder !== 'kinds/*' && !isKind(folder))
    .map((folder) =>
      oneWay(
        `${folder} imports only its own files and: ${FOLDER_IMPORTS[folder].join(', ') || 'nothing else of ours'} (FOLDER_IMPORTS).`,
        { path: folderPath(folder) },
        { path: '^(src|jobs)/', pathNot: [folderPath(folder), ...FOLDER_IMPORTS[folder].map(folderPath)] },
      ),
    ),
  oneWay(
    `A kind's folder imports only its own files and: ${FOLDER_IMPORTS['kinds/*'].join(', ')} (FOLDER_IMPORTS).`,
    { path: '^src/kinds/([^/]+)/', pathNot: KIND_EXTRAS.map(folderPath) },
    { path: '^(src|jobs)/', pathNot: ['^src/kinds/$1/', ...FOLDER_IMPORTS['kinds/*'].map(folderPath)] },
  ),
  ...KIND_EXTRAS.map((folder) =>
    oneWay(
      `${folder} imports only its own files, what every kind's folder may, and: ${FOLDER_IMPORTS[folder].join(', ')} (FOLDER_IMPORTS).`,
      { path: folderPath(folder) },
      { path: '^(src|jobs)/', pathNot: [folderPath(folder), ...importsOf(folder).map(folderPath)] },
    ),
  ),
];

module.exports = {
  forbidden: [
    ...folderRules,
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
        "Outside src/kinds a kind is reached only through the registry (and the definition types; kind-names.ts, the names alone): nothing lists kinds, calls a kind's strategy directly or knows a kind's settings (a kind declares its feed keys and chunk settings in its definition).",
      severity: 'error',
      from: { path: '^(src|jobs)/', pathNot: '^src/kinds/' },
      to: {
        path: '^src/kinds/',
        pathNot: '^src/kinds/(registry|definition|kind-names)[.]ts$',
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
      from: { path: '^src/(sources/field-spec|kinds/[^/]+/(fields|bank-account-target))[.]ts$' },
      to: { path: '^(src|jobs)/', pathNot: '^src/(contract/|sources/field-spec[.]ts$)' },
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
