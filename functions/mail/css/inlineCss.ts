import { FOREIGN_ELEMENTS, NON_VISUAL_ELEMENTS, START_TAG_CLOSES, VOID_ELEMENTS } from './htmlTreeRules';
import { tokenizeHtml, type HtmlAttribute, type HtmlToken } from './htmlTokens';
import type { ElementInfo } from './selector';
import { parseDeclarations, parseStylesheet, type CssDeclaration, type CssRule, type Stylesheet } from './stylesheet';

type OpenToken = Extract<HtmlToken, { kind: 'open' }>;

/** The rules of every `<style>` block of a document, in order, indexed by what their rightmost element needs. */
interface RuleSet {
  readonly sheets: readonly Stylesheet[];
  readonly byKey: ReadonlyMap<string, readonly RankedRule[]>;
}
interface RankedRule {
  readonly rule: CssRule;
  readonly sheet: number;
  readonly position: number;
}

/** A declaration competing for an element: `rank` orders the cascade, `origin` tells rules (or the style attribute) apart. */
interface Candidate {
  readonly declaration: CssDeclaration;
  readonly rank: readonly number[];
  readonly origin: object;
}

/** Table cells and the like also get the HTML attribute of these properties (older Outlook reads only those). */
const STYLE_TO_ATTRIBUTE: Readonly<Record<string, string>> = {
  'background-color': 'bgcolor',
  'background-image': 'background',
  'text-align': 'align',
  'vertical-align': 'valign',
};
const TABLE_ELEMENTS = new Set(['table', 'th', 'tr', 'td', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot']);

const sheetCache = new Map<string, Stylesheet>();
const ruleSetCache = new Map<string, RuleSet>();
const CACHE_LIMIT = 16;

function cached<T>(cache: Map<string, T>, key: string, make: () => T): T {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = make();
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

function ruleSet(css: readonly string[]): RuleSet {
  return cached(ruleSetCache, css.join('\u0000'), () => {
    const sheets = css.map((text) => cached(sheetCache, text, () => parseStylesheet(text)));
    const byKey = new Map<string, RankedRule[]>();
    let position = 0;
    sheets.forEach((sheet, index) => {
      for (const rule of sheet.rules) {
        const list = byKey.get(rule.selector.key) ?? [];
        list.push({ rule, sheet: index, position: position++ });
        byKey.set(rule.selector.key, list);
      }
    });
    return { sheets, byKey };
  });
}

function elementInfo(token: { name: string; attributes: readonly HtmlAttribute[] }): ElementInfo {
  const attr = (name: string) => token.attributes.find((a) => a.name === name)?.value;
  return { tag: token.name, id: attr('id'), classes: (attr('class') ?? '').split(/\s+/).filter(Boolean) };
}

function matchingRules(rules: RuleSet, path: readonly ElementInfo[]): RankedRule[] {
  const el = path[path.length - 1] as ElementInfo;
  const keys = ['*', el.tag, ...(el.id === undefined ? [] : [`#${el.id}`]), ...el.classes.map((c) => `.${c}`)];
  const seen = new Set<RankedRule>();
  for (const key of keys) for (const ranked of rules.byKey.get(key) ?? []) if (ranked.rule.selector.matches(path)) seen.add(ranked);
  return [...seen].sort((a, b) => a.position - b.position);
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
}

/**
 * The cascade for one element: per property the winning declaration (`!important` first, then
 * the style attribute, then specificity, then source order). Several declarations of one property
 * in the same rule are all kept, so fallbacks (`width: 100px; width: calc(...)`) survive.
 * Map order is the order properties were first set (a property overridden by another rule moves
 * to the end), which decides the order of the table attributes.
 */
function cascade(style: string | undefined, rules: readonly RankedRule[]): Map<string, Candidate[]> {
  const winners = new Map<string, Candidate[]>();
  const offer = (candidate: Candidate): void => {
    const name = candidate.declaration.name;
    const current = winners.get(name);
    const head = current?.[0];
    if (!current || !head) {
      winners.set(name, [candidate]);
    } else if (compareRanks(head.rank, candidate.rank) <= 0) {
      if (head.origin === candidate.origin) {
        current.unshift(candidate);
      } else {
        winners.delete(name);
        winners.set(name, [candidate]);
      }
    }
  };
  if (style) {
    const origin = {};
    for (const declaration of parseDeclarations(style))
      offer({ declaration, origin, rank: [(declaration.important ? 2 : 0) + 1, 0, 0, 0, 0, declaration.order] });
  }
  for (const { rule, sheet } of rules) {
    const [ids, classes, types] = rule.selector.specificity;
    for (const declaration of rule.declarations)
      offer({ declaration, origin: rule, rank: [declaration.important ? 2 : 0, ids, classes, types, sheet, declaration.order] });
  }
  return winners;
}

function styleText(winners: Map<string, Candidate[]>): string {
  return [...winners.values()]
    .flat()
    .sort((a, b) => compareRanks(a.rank, b.rank))
    .filter((c) => c.declaration.name !== 'content')
    .map((c) => `${c.declaration.name}: ${c.declaration.value.replace(/"/g, "'")};`)
    .join(' ');
}

function tableAttributes(winners: Map<string, Candidate[]>): HtmlAttribute[] {
  const attributes: HtmlAttribute[] = [];
  for (const [name, [winner]] of winners) {
    const attribute = STYLE_TO_ATTRIBUTE[name];
    if (attribute === undefined || winner === undefined) continue;
    let value = winner.declaration.value;
    if (attribute === 'background') value = value.replace(/^url\((["'])?([^"']+)\1\)$/, '$2');
    if (!/(linear|radial)-gradient\(/i.test(value)) attributes.push({ name: attribute, value });
  }
  return attributes;
}

function setAttribute(attributes: HtmlAttribute[], name: string, value: string): void {
  const i = attributes.findIndex((a) => a.name === name);
  if (i >= 0) attributes[i] = { name, value };
  else attributes.push({ name, value });
}

function startTag(name: string, attributes: readonly HtmlAttribute[], selfClosing: boolean): string {
  const attrs = attributes.map((a) => (a.value === '' ? ` ${a.name}` : ` ${a.name}="${a.value.replace(/"/g, '&quot;')}"`)).join('');
  return `<${name}${attrs}${selfClosing ? ' /' : ''}>`;
}

/** The start tag with the element's styles inlined, or `undefined` when no rule applies. */
function styledStartTag(
  rules: RuleSet,
  path: readonly ElementInfo[],
  token: Pick<OpenToken, 'name' | 'attributes'>,
  foreignSelfClosing: boolean,
): string | undefined {
  if (NON_VISUAL_ELEMENTS.has(token.name)) return undefined;
  const matched = matchingRules(rules, path);
  if (matched.length === 0) return undefined;
  const winners = cascade(token.attributes.find((a) => a.name === 'style')?.value, matched);
  const attributes = [...token.attributes];
  const style = styleText(winners);
  if (style) setAttribute(attributes, 'style', style);
  if (TABLE_ELEMENTS.has(token.name)) for (const { name, value } of tableAttributes(winners)) setAttribute(attributes, name, value);
  return startTag(token.name, attributes, foreignSelfClosing);
}

/**
 * Inlines the CSS of an HTML document's `<style>` blocks into `style` attributes, for email
 * clients that ignore style sheets: the result matches juice with `removeStyleTags`,
 * `preserveMediaQueries` and `applyAttributesTableElements` (and no width/height attributes).
 *
 * - Rules apply in cascade order (`!important`, the existing `style` attribute, specificity,
 *   source order); the declarations of each element are written in that order.
 * - `<style>` blocks are removed, except for their `@media`, `@font-face` and `@keyframes` rules,
 *   which stay in place, verbatim.
 * - Table elements also get `bgcolor`, `background`, `align` and `valign` from their styles.
 * - Elements are matched in the tree an HTML parser builds: a block start tag closes an open
 *   `<p>`, a stray `</p>` is an empty paragraph; those implied tags are written out, so every
 *   client sees the same structure.
 *
 * Each distinct stylesheet is parsed once and cached. Selectors beyond type, class, id,
 * descendant and child throw `EmailRenderError`, as do custom properties.
 */
export function inlineCss(html: string): string {
  const tokens = tokenizeHtml(html);
  const styleBlocks = tokens.filter((t): t is OpenToken => t.kind === 'open' && t.name === 'style' && t.rawText !== undefined);
  if (styleBlocks.length === 0) return html;
  const rules = ruleSet(styleBlocks.map((t) => html.slice(t.rawText?.start, t.rawText?.end)));

  const out: string[] = [];
  const stack: ElementInfo[] = [];
  let foreign = 0;
  let skipStyleClose = false;
  let styleIndex = 0;
  const closeTop = (): void => {
    const top = stack.pop();
    if (top === undefined) return;
    if (FOREIGN_ELEMENTS.has(top.tag)) foreign--;
    out.push(`</${top.tag}>`);
  };

  for (const token of tokens) {
    if (token.kind === 'markup') {
      out.push(html.slice(token.start, token.end));
      continue;
    }
    if (token.kind === 'close') {
      if (skipStyleClose && token.name === 'style') {
        skipStyleClose = false;
        continue;
      }
      const at = stack.map((e) => e.tag).lastIndexOf(token.name);
      if (at >= 0) {
        while (stack.length > at + 1) closeTop();
        const closed = stack.pop();
        if (closed && FOREIGN_ELEMENTS.has(closed.tag)) foreign--;
        out.push(html.slice(token.start, token.end));
      } else if (token.name === 'p' || token.name === 'br') {
        // A stray </p> is an empty paragraph, a stray </br> a line break.
        const implied = { name: token.name, attributes: [] };
        const path = [...stack, elementInfo(implied)];
        out.push((styledStartTag(rules, path, implied, false) ?? `<${token.name}>`) + (token.name === 'p' ? '</p>' : ''));
      }
      continue;
    }

    if (token.name === 'style' && token.rawText !== undefined) {
      const preserved = rules.sheets[styleIndex++]?.preserved ?? [];
      if (preserved.length > 0) out.push(`${html.slice(token.start, token.end)}\n${preserved.join('\n')}\n</style>`);
      skipStyleClose = true;
      continue;
    }
    const closes = START_TAG_CLOSES.get(token.name);
    while (closes && stack.length > 0 && closes.has((stack[stack.length - 1] as ElementInfo).tag)) closeTop();
    const info = elementInfo(token);
    const opens = !VOID_ELEMENTS.has(token.name) && !(token.selfClosing && foreign > 0);
    const path = [...stack, info];
    out.push(styledStartTag(rules, path, token, token.selfClosing && foreign > 0) ?? html.slice(token.start, token.end));
    if (token.rawText) out.push(html.slice(token.rawText.start, token.rawText.end));
    if (opens) {
      stack.push(info);
      if (FOREIGN_ELEMENTS.has(token.name)) foreign++;
    }
  }
  while (stack.length > 0) closeTop();
  return out.join('');
}
