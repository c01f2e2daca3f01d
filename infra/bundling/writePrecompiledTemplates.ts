/**
 * `node --import tsx infra/bundling/writePrecompiledTemplates.ts <templates dir>`: the CDK
 * bundling hook that precompiles a mailer bundle's copied `templates/` (see `bundleSettings.ts`).
 */
import { writePrecompiledTemplates } from './precompileTemplates';

const [root, ...extra] = process.argv.slice(2);
if (root === undefined || extra.length > 0) {
  console.error('usage: writePrecompiledTemplates.ts <templates dir>');
  process.exit(2);
}
writePrecompiledTemplates(root);
