import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHANNEL_TYPES } from '../../../functions/domain/channel';
import { docExamples } from '../../support/channels/docExamples';

/** `<!-- example: <name> -->` followed by a fenced json block. */
const EXAMPLE = /<!-- example: ([\w.-]+) -->\n```json\n([\s\S]*?)\n```/g;
const pageOf = (type: string) => `docs/channels/${type}.md`;

/** Set `UPDATE_DOC_EXAMPLES=1` to rewrite the pages' example blocks from the renderers. */
const update = process.env['UPDATE_DOC_EXAMPLES'] === '1';

describe("the channel pages' examples are what the renderers send", () => {
  const examples = docExamples();
  it.each(CHANNEL_TYPES)('docs/channels/%s.md', (type) => {
    const wanted = examples[type];
    const page = readFileSync(pageOf(type), 'utf8');
    if (update) {
      writeFileSync(
        pageOf(type),
        page.replace(EXAMPLE, (_all, name: string) => `<!-- example: ${name} -->\n\`\`\`json\n${JSON.stringify(wanted[name] ?? null, null, 2)}\n\`\`\``),
      );
      return;
    }
    const shown = Object.fromEntries([...page.matchAll(EXAMPLE)].map((m) => [m[1], JSON.parse(m[2] ?? 'null') as unknown]));
    expect(Object.keys(shown).sort(), 'every example is on the page').toEqual(Object.keys(wanted).sort());
    expect(shown, `out of date: UPDATE_DOC_EXAMPLES=1 npx vitest run test/unit/channels/docExamples.test.ts`).toEqual(JSON.parse(JSON.stringify(wanted)));
  });
});
