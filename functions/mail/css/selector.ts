import { EmailRenderError } from '../errors';

/** What a selector can test about an element: its tag (lower case), id and classes. */
export interface ElementInfo {
  readonly tag: string;
  readonly id: string | undefined;
  readonly classes: readonly string[];
}

/** A compiled selector of the subset the email stylesheet may use. */
export interface Selector {
  readonly text: string;
  /** Ids, classes, type selectors: compared in that order, like CSS specificity. */
  readonly specificity: readonly [number, number, number];
  /** `.class`, `#id`, a tag or `*`: what the rightmost element must have (used to index rules). */
  readonly key: string;
  /** Whether the last element of `path` (the element, after its ancestors from the root) matches. */
  matches(path: readonly ElementInfo[]): boolean;
}

interface Compound {
  readonly tag: string | undefined;
  readonly id: string | undefined;
  readonly classes: readonly string[];
}

const COMPOUND = /^(\*|[A-Za-z][\w-]*)?((?:[.#]-?[A-Za-z_][\w-]*)*)$/;
const SUPPORTED = 'type, class, id, descendant and child selectors';

function compound(part: string, text: string): Compound {
  const match = COMPOUND.exec(part);
  if (!part || !match) throw new EmailRenderError(`email stylesheet: unsupported selector "${text}" (the inliner supports ${SUPPORTED})`);
  const simple = match[2]?.match(/[.#][\w-]+/g) ?? [];
  const ids = simple.filter((s) => s.startsWith('#')).map((s) => s.slice(1));
  if (ids.length > 1) throw new EmailRenderError(`email stylesheet: selector "${text}" names two ids`);
  const tag = match[1] === undefined || match[1] === '*' ? undefined : match[1].toLowerCase();
  return { tag, id: ids[0], classes: simple.filter((s) => s.startsWith('.')).map((s) => s.slice(1)) };
}

function compoundMatches(c: Compound, el: ElementInfo): boolean {
  return (c.tag === undefined || c.tag === el.tag) && (c.id === undefined || c.id === el.id) && c.classes.every((k) => el.classes.includes(k));
}

/**
 * Compiles one selector (no commas): compounds of a type or `*`, classes and an id, joined by
 * descendant (space) or child (`>`) combinators. Anything else (pseudo-classes, attributes,
 * sibling combinators) throws `EmailRenderError` naming the selector.
 */
export function parseSelector(text: string): Selector {
  const parts = text.trim().split(/\s*(>)\s*|\s+/);
  const compounds: Compound[] = [];
  const childOf: boolean[] = []; // childOf[i]: compound i+1 is a child (not just a descendant) of compound i
  parts.forEach((part, i) => {
    if (i % 2 === 0) compounds.push(compound(part ?? '', text));
    else childOf.push(part === '>');
  });
  const last = compounds[compounds.length - 1] as Compound;
  const specificity: [number, number, number] = [0, 0, 0];
  for (const c of compounds) {
    specificity[0] += c.id === undefined ? 0 : 1;
    specificity[1] += c.classes.length;
    specificity[2] += c.tag === undefined ? 0 : 1;
  }
  const key = last.classes[0] !== undefined ? `.${last.classes[0]}` : last.id !== undefined ? `#${last.id}` : (last.tag ?? '*');

  const matchAt = (ci: number, path: readonly ElementInfo[], pi: number): boolean => {
    const el = path[pi];
    if (el === undefined || !compoundMatches(compounds[ci] as Compound, el)) return false;
    if (ci === 0) return true;
    if (childOf[ci - 1]) return matchAt(ci - 1, path, pi - 1);
    for (let j = pi - 1; j >= 0; j--) if (matchAt(ci - 1, path, j)) return true;
    return false;
  };
  return { text, specificity, key, matches: (path) => matchAt(compounds.length - 1, path, path.length - 1) };
}
