/**
 * Import rules of the layered design (docs/architecture.md), checked by `npm run lint:deps`:
 *
 *   handlers -> runtime -> web -> services -> notices -> messages, store, chain, mail, links, queue, config, shared -> domain
 *
 * Around them: `infra/` deploys `functions/`; `local/` and `cli/` run them; `bench/` measures all of
 * these; `test/` may import anything, and nothing imports `test/`.
 *
 * Folders only import downwards, without exception; `functions/` never imports the local tools
 * (`local/`, `cli/`). The handler catalog (`functions/config/handlerCatalog.ts`), data that imports
 * nothing, sits at the bottom, below every layer that reads it (config's settings among them).
 * @type {import('dependency-cruiser').IConfiguration}
 */
const ADAPTERS = '^functions/(store|chain|mail|links|queue|channels|config|shared|messages)/';
const HANDLER_CATALOG = '^functions/config/handlerCatalog\\.ts$';
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules must not import each other in a cycle.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'functions-not-local-tools',
      severity: 'error',
      comment: 'Deployable code never imports the local tools or the CLI.',
      from: { path: '^functions/' },
      to: { path: '^(local|cli|bench|test|infra)/' },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'The domain imports nothing of ours but the domain, and no I/O module.',
      from: { path: '^functions/domain/' },
      to: { pathNot: ['^functions/domain/', '^node_modules/(zod|@noble)/'] },
    },
    {
      name: 'adapters-below-services',
      severity: 'error',
      comment: 'Adapters (store, chain, mail, links, queue), messages, config and shared never import notices, services, web, runtime or handlers.',
      from: { path: ADAPTERS },
      to: { path: '^functions/(notices|services|web|runtime|handlers)/' },
    },
    {
      name: 'notices-below-services',
      severity: 'error',
      comment: 'The outbound pipeline (presenters, audience, email rendering) is shared by every feature; it imports no use case, page, runtime or handler.',
      from: { path: '^functions/notices/' },
      to: { path: '^functions/(services|web|runtime|handlers)/' },
    },
    {
      name: 'adapters-independent',
      severity: 'error',
      comment: 'An adapter does not import another adapter; what they share lives in shared/ or domain/.',
      from: { path: '^functions/(store|chain|mail|links|queue|channels)/' },
      to: { path: '^functions/(store|chain|mail|links|queue|channels)/', pathNot: '^functions/$1/' },
    },
    {
      name: 'messages-are-contracts',
      severity: 'error',
      comment: 'Queue message schemas depend on the domain only.',
      from: { path: '^functions/messages/' },
      to: { path: '^functions/', pathNot: '^functions/(messages|domain)/' },
    },
    {
      name: 'shared-and-config-at-the-bottom',
      severity: 'error',
      comment: 'shared/ and config/ import only each other and the domain.',
      from: { path: '^functions/(shared|config)/' },
      to: { path: '^functions/', pathNot: '^functions/(shared|config|domain)/' },
    },
    {
      name: 'services-below-web',
      severity: 'error',
      comment: 'Use cases never import page controllers, the composition root or handlers.',
      from: { path: '^functions/services/' },
      to: { path: '^functions/(web|runtime|handlers)/' },
    },
    {
      name: 'delivery-is-shared-by-features',
      severity: 'error',
      comment: 'services/delivery is what notify, report and revocation share; it imports no feature.',
      from: { path: '^functions/services/delivery/' },
      to: { path: '^functions/services/', pathNot: '^functions/services/delivery/' },
    },
    {
      name: 'features-independent',
      severity: 'error',
      comment: 'A service feature imports only services/delivery and the collection settings, never another feature.',
      from: { path: '^functions/services/([^/]+)/', pathNot: '^functions/services/desk/' },
      to: {
        path: '^functions/services/',
        pathNot: ['^functions/services/$1/', '^functions/services/delivery/', '^functions/services/collect/collectSettings\\.ts$'],
      },
    },
    {
      name: 'desk-reads-what-the-emails-compute',
      severity: 'error',
      comment:
        "The desk page (read side) imports, besides services/delivery and the collection settings, only what makes its figures the emails': the report's composition and collect's rollup measure; and, for the channels page's Test button run in process (locally; in AWS the desk invokes `channel-test`), the one send `sentinel channels test` makes (runChannelTest).",
      from: { path: '^functions/services/desk/' },
      to: {
        path: '^functions/services/',
        pathNot: [
          '^functions/services/desk/',
          '^functions/services/delivery/',
          '^functions/services/collect/(collectSettings|measureWithRollup)\\.ts$',
          '^functions/services/report/compose/',
          '^functions/services/channels/runChannelTest\\.ts$',
        ],
      },
    },
    {
      name: 'report-flows-down',
      severity: 'error',
      comment:
        'Inside the report feature the flow runs one way: schedule/ hands jobs to send/, send/ builds with compose/; compose/ imports neither, send/ never imports schedule/.',
      from: { path: '^functions/services/report/(compose|send)/' },
      to: { path: '^functions/services/report/(schedule|send)/', pathNot: '^functions/services/report/$1/' },
    },
    {
      name: 'one-sqs-consumer',
      severity: 'error',
      comment:
        'SQS consumption is one module, functions/runtime/consumer/: outside it, code uses its entry (sqsConsumer, and delegateUnitWorker built on it), the queue settings of a consumer (consumerQueue) and the body reader (parseRecord, in sqsConsumer), never its insides (the batch processor, the poison rule).',
      from: { path: '^(functions|local|cli|infra|bench)/', pathNot: '^functions/runtime/consumer/' },
      to: { path: '^functions/runtime/consumer/', pathNot: '^functions/runtime/consumer/(sqsConsumer|delegateUnitWorker|consumerQueue)\\.ts$' },
    },
    {
      name: 'web-below-runtime',
      severity: 'error',
      comment: 'Page controllers never import the composition root or handlers.',
      from: { path: '^functions/web/' },
      to: { path: '^functions/(runtime|handlers)/' },
    },
    {
      name: 'runtime-below-handlers',
      severity: 'error',
      comment: 'Only handlers (and local tools) import handlers: no exception, the catalog included.',
      from: { path: '^functions/', pathNot: '^functions/handlers/' },
      to: { path: '^functions/handlers/' },
    },
    {
      name: 'infra-deploys-functions',
      severity: 'error',
      comment: 'The stacks read the functions (catalog, settings, queue settings); never the local tools, benchmarks or tests.',
      from: { path: '^infra/' },
      to: { path: '^(local|cli|bench|test)/' },
    },
    {
      name: 'nothing-imports-tests',
      severity: 'error',
      comment: 'Test support is for tests only: no shipped code, tool or benchmark imports from test/.',
      from: { path: '^(functions|local|cli|infra|bench|bin)/' },
      to: { path: '^test/' },
    },
    {
      name: 'tools-not-benchmarks',
      severity: 'error',
      comment: 'The local tools and the CLI never import benchmark code; benchmarks build on them.',
      from: { path: '^(local|cli)/' },
      to: { path: '^bench/' },
    },
    {
      name: 'handler-catalog-is-data',
      severity: 'error',
      comment: 'The handler catalog, read by every layer, imports nothing.',
      from: { path: HANDLER_CATALOG },
      to: {},
    },
    {
      name: 'handler-catalog-below-its-readers',
      severity: 'error',
      comment:
        'The handler catalog lives at the bottom (config/handlerCatalog.ts), below config, runtime, services, infra and bench, which read it: none of them reaches up into handlers/ for it.',
      from: { path: '^(functions|infra|bench|cli|local)/', pathNot: '^functions/handlers/' },
      to: { path: ['^functions/handlers/[^/]*[Cc]atalog', '^functions/handlers/.*/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: { path: ['^functions/', '^local/', '^cli/', '^infra/', '^bench/', '^test/', '^node_modules/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
