import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { EXTENSIONS_BY_MIME_TYPE, MIME_TYPES_BY_EXTENSION, detectExtension, detectMimeType } from '../../infra/bundling/stubs/mailMimeTypes';

const nodemailerTypes = createRequire(import.meta.url)('nodemailer/lib/mime-funcs/mime-types') as {
  detectMimeType(filename?: string): string;
  detectExtension(mimeType?: string): string;
};

describe("the stub of nodemailer's MIME-type table", () => {
  const filenames = [...MIME_TYPES_BY_EXTENSION.keys()].flatMap((ext) => [ext, `chart.${ext}`, `CHART.${ext.toUpperCase()}`, `a/b/c.${ext}?x=1`]);

  it.each(filenames)('detects the type of %s as nodemailer does', (filename) => {
    expect(detectMimeType(filename)).toBe(nodemailerTypes.detectMimeType(filename));
  });

  it.each([...EXTENSIONS_BY_MIME_TYPE.keys(), 'TEXT/HTML', ' image/png ', 'text/x-unknown', 'application/x-unknown'])('gives %s the extension nodemailer gives it', (type) => {
    expect(detectExtension(type)).toBe(nodemailerTypes.detectExtension(type));
  });

  it('falls back to the same defaults', () => {
    for (const empty of [undefined, '']) {
      expect(detectMimeType(empty)).toBe(nodemailerTypes.detectMimeType(empty));
      expect(detectExtension(empty)).toBe(nodemailerTypes.detectExtension(empty));
    }
    expect(detectMimeType('archive.unknownext')).toBe(nodemailerTypes.detectMimeType('archive.unknownext'));
  });
});
