import { EmailRenderError } from '../errors';
import { parseSelector, type Selector } from './selector';

/** One declaration; `order` is its position in its stylesheet (at equal specificity the later one wins). */
export interface CssDeclaration {
  readonly name: string;
  /** Without `!important`. */
  readonly value: string;
  readonly important: boolean;
  readonly order: number;
}

/** A rule for one selector; the selectors of a list (`a, b { }`) share the same declarations. */
export interface CssRule {
  readonly selector: Selector;
  readonly declarations: readonly CssDeclaration[];
}

/** A parsed `<style>` block. */
export interface Stylesheet {
  readonly rules: readonly CssRule[];
  /** At-rules that cannot be inlined and stay in a `<style>` block, verbatim: `@media`, `@font-face`, `@keyframes`. */
  readonly preserved: readonly string[];
}

const PRESERVED_AT_RULES = /^@(media|font-face|(-webkit-)?keyframes)\b/i;

function fail(message: string): never {
  throw new EmailRenderError(`email stylesheet: ${message}`);
}

/** Index just past the quoted string starting at `i`. */
function skipString(css: string, i: number): number {
  const quote = css[i];
  let j = i + 1;
  while (j < css.length && css[j] !== quote) j += css[j] === '\\' ? 2 : 1;
  if (j >= css.length) fail('unterminated string');
  return j + 1;
}

function stripComments(css: string): string {
  let out = '';
  let i = 0;
  while (i < css.length) {
    const c = css[i];
    if (c === '"' || c === "'") {
      const end = skipString(css, i);
      out += css.slice(i, end);
      i = end;
    } else if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      if (end < 0) fail('unterminated comment');
      i = end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Index of the `}` closing the block whose `{` is at `open`. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") i = skipString(css, i) - 1;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return fail('unbalanced braces');
}

/** Splits at `separator` outside strings and parentheses. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") i = skipString(text, i) - 1;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * Parses declarations (`name: value; ...`, as in a rule body or a `style` attribute), numbering
 * them from `firstOrder`. Custom properties and `var()` are not supported and throw.
 */
export function parseDeclarations(text: string, firstOrder = 0): CssDeclaration[] {
  const declarations: CssDeclaration[] = [];
  for (const part of splitTopLevel(text, ';')) {
    if (!part.trim()) continue;
    const colon = part.indexOf(':');
    const name = part.slice(0, colon).trim();
    const raw = part.slice(colon + 1).trim();
    if (colon < 0 || !name || !raw) fail(`invalid declaration "${part.trim()}"`);
    if (name.startsWith('--') || /\bvar\(/i.test(raw)) fail(`custom properties are not supported ("${part.trim()}")`);
    const important = /!important$/.test(raw);
    const value = important ? raw.replace(/\s*!important$/, '') : raw;
    declarations.push({ name, value, important, order: firstOrder + declarations.length });
  }
  return declarations;
}

/**
 * Parses the CSS of a `<style>` block: rules (one per selector of a list, in source order) and the
 * at-rules to keep. Unsupported selectors or at-rules throw `EmailRenderError`.
 */
export function parseStylesheet(source: string): Stylesheet {
  const css = stripComments(source);
  const rules: CssRule[] = [];
  const preserved: string[] = [];
  let order = 0;
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    const head = css.slice(i, open < 0 ? css.length : open).trim();
    if (open < 0) {
      if (head) fail(`unexpected "${head}"`);
      break;
    }
    const close = blockEnd(css, open);
    if (head.startsWith('@')) {
      if (!PRESERVED_AT_RULES.test(head)) fail(`unsupported at-rule "${head}"`);
      preserved.push(css.slice(css.indexOf('@', i), close + 1));
    } else {
      const declarations = parseDeclarations(css.slice(open + 1, close), order);
      order += declarations.length;
      if (declarations.length > 0) {
        for (const selector of splitTopLevel(head, ',')) rules.push({ selector: parseSelector(selector), declarations });
      }
    }
    i = close + 1;
  }
  return { rules, preserved };
}
