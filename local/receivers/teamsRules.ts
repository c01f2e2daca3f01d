import type { RuleCheck } from './chatRules';

/** The most a Teams Workflows webhook takes: about 28 KB of request body. */
export const TEAMS_MAX_BODY_BYTES = 28 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The Adaptive Card elements and actions the stand-in knows (schema 1.4). */
const ELEMENTS = new Set(['TextBlock', 'RichTextBlock', 'Container', 'ColumnSet', 'FactSet', 'Image', 'ImageSet', 'ActionSet']);
const ACTIONS = new Set(['Action.OpenUrl', 'Action.Submit', 'Action.ShowCard', 'Action.ToggleVisibility', 'Action.Execute']);

function checkElement(element: unknown, path: string): RuleCheck {
  if (!isObject(element) || typeof element['type'] !== 'string' || !ELEMENTS.has(element['type'])) return `${path}: not an Adaptive Card element`;
  if (element['type'] === 'TextBlock' && typeof element['text'] !== 'string') return `${path}: a TextBlock needs text`;
  if (element['type'] === 'RichTextBlock') {
    const inlines = element['inlines'];
    if (!Array.isArray(inlines) || inlines.some((r) => !isObject(r) || r['type'] !== 'TextRun' || typeof r['text'] !== 'string'))
      return `${path}: a RichTextBlock holds TextRuns with text`;
  }
  if (element['type'] === 'Container') {
    const items = element['items'];
    if (!Array.isArray(items)) return `${path}: a Container needs items`;
    for (const [i, item] of items.entries()) {
      const problem = checkElement(item, `${path}.items[${i}]`);
      if (problem) return problem;
    }
  }
  return null;
}

/**
 * A Teams Workflows webhook ("When a Teams webhook request is received", posting a card): the body
 * is `{ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive',
 * content: <AdaptiveCard> }] }`, the card of type `AdaptiveCard` with a `version` and a `body`;
 * `Action.OpenUrl` needs an absolute URL. A body breaking these is answered 400.
 */
export function checkTeams(body: unknown): RuleCheck {
  if (!isObject(body) || body['type'] !== 'message') return "the body must be a message ({ type: 'message' })";
  const attachments = body['attachments'];
  if (!Array.isArray(attachments) || attachments.length === 0) return 'a message needs attachments';
  for (const [i, attachment] of attachments.entries()) {
    if (!isObject(attachment) || attachment['contentType'] !== 'application/vnd.microsoft.card.adaptive')
      return `attachments[${i}]: contentType must be application/vnd.microsoft.card.adaptive`;
    const card = attachment['content'];
    if (!isObject(card) || card['type'] !== 'AdaptiveCard') return `attachments[${i}].content: type must be AdaptiveCard`;
    if (typeof card['version'] !== 'string') return `attachments[${i}].content: a card needs its version`;
    if (!Array.isArray(card['body'])) return `attachments[${i}].content: a card needs a body`;
    for (const [j, element] of card['body'].entries()) {
      const problem = checkElement(element, `attachments[${i}].content.body[${j}]`);
      if (problem) return problem;
    }
    const actions = card['actions'] ?? [];
    if (!Array.isArray(actions)) return `attachments[${i}].content.actions must be a list`;
    for (const [j, action] of actions.entries()) {
      if (!isObject(action) || typeof action['type'] !== 'string' || !ACTIONS.has(action['type'])) return `actions[${j}]: not an Adaptive Card action`;
      if (action['type'] === 'Action.OpenUrl' && !/^https?:\/\//.test(String(action['url']))) return `actions[${j}]: Action.OpenUrl needs an absolute url`;
    }
  }
  return null;
}
