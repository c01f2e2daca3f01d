import type { Notice } from '../../domain/notice';
import { noticeTableText } from '../../domain/noticeTableText';
import { plainText, textParts } from '../../domain/verbatimText';

/** What Teams takes from a Workflows webhook: a message of at most about 28 KB (the request body, UTF-8). */
export const TEAMS_LIMITS = { bodyBytes: 28 * 1024, title: 200, fieldText: 2_000, table: 12_000, actions: 6 } as const;

/** The attachment content type of an Adaptive Card. */
export const ADAPTIVE_CARD_TYPE = 'application/vnd.microsoft.card.adaptive';

/** A run of plain text: unlike a `TextBlock`, a `TextRun` is never read as Markdown. */
export interface TextRun {
  type: 'TextRun';
  text: string;
  weight?: 'Bolder';
  size?: 'Large';
  color?: 'Attention' | 'Warning' | 'Accent';
  fontType?: 'Monospace';
}

/** The card elements the renderer uses. */
export type CardElement =
  { type: 'RichTextBlock'; inlines: TextRun[]; spacing?: 'None' | 'Medium' } | { type: 'Container'; items: CardElement[]; spacing?: 'Medium' };

/** A card button: opens the link (the same confirmation pages as in email). */
export interface OpenUrlAction {
  type: 'Action.OpenUrl';
  title: string;
  url: string;
  style?: 'destructive';
}

/** The Adaptive Card of a notice (schema 1.4, which Teams renders from a webhook). */
export interface AdaptiveCard {
  $schema: 'http://adaptivecards.io/schemas/adaptive-card.json';
  type: 'AdaptiveCard';
  version: '1.4';
  body: CardElement[];
  actions?: OpenUrlAction[];
  msteams: { width: 'Full' };
}

/** The message a Teams Workflows webhook takes: one Adaptive Card in a `message` attachment. */
export interface TeamsMessage {
  type: 'message';
  attachments: [{ contentType: typeof ADAPTIVE_CARD_TYPE; contentUrl: null; content: AdaptiveCard }];
}

const SEVERITY_COLOR = { critical: 'Attention', warning: 'Warning', info: 'Accent' } as const;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Notice text as runs: plain, each verbatim span (a name others chose) monospaced, none of it Markdown. */
function runs(text: string, max: number): TextRun[] {
  return textParts(cut(text, max)).map((p) => (p.verbatim ? { type: 'TextRun', text: p.text, fontType: 'Monospace' } : { type: 'TextRun', text: p.text }));
}

/** The table as monospaced lines, within `max` characters (the last line counts what was left out). */
function tableBlock(notice: Notice, max: number): CardElement[] {
  if (!notice.table) return [];
  const table = noticeTableText(notice.table, { max });
  if (table.text === '') return [];
  const lines = table.text.split('\n').map((line) => ({
    type: 'RichTextBlock' as const,
    spacing: 'None' as const,
    inlines: [{ type: 'TextRun' as const, text: line, fontType: 'Monospace' as const }],
  }));
  return [{ type: 'Container', spacing: 'Medium', items: lines }];
}

/** The request body's size in bytes (what the 28 KB limit counts). */
export function teamsBodyBytes(message: TeamsMessage): number {
  return new TextEncoder().encode(JSON.stringify(message)).length;
}

function card(notice: Notice, tableMax: number): TeamsMessage {
  const body: CardElement[] = [
    {
      type: 'RichTextBlock',
      inlines: [
        { type: 'TextRun', text: cut(plainText(notice.title), TEAMS_LIMITS.title), weight: 'Bolder', size: 'Large', color: SEVERITY_COLOR[notice.severity] },
      ],
    },
    { type: 'RichTextBlock', inlines: runs(notice.summary, TEAMS_LIMITS.fieldText) },
    ...notice.fields.map((f) => ({
      type: 'RichTextBlock' as const,
      inlines: [{ type: 'TextRun' as const, text: `${f.label}: `, weight: 'Bolder' as const }, ...runs(f.value, TEAMS_LIMITS.fieldText)],
    })),
    ...tableBlock(notice, tableMax),
  ];
  const actions: OpenUrlAction[] = notice.links.slice(0, TEAMS_LIMITS.actions).map((l) => ({
    type: 'Action.OpenUrl',
    title: l.label,
    url: l.url,
    ...(l.action === 'revoke' || l.action === 'revoke-all' ? { style: 'destructive' as const } : {}),
  }));
  const content: AdaptiveCard = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    ...(actions.length > 0 ? { actions } : {}),
    msteams: { width: 'Full' },
  };
  return { type: 'message', attachments: [{ contentType: ADAPTIVE_CARD_TYPE, contentUrl: null, content }] };
}

/**
 * The Teams message of a notice: one Adaptive Card (title coloured by severity, summary, fields,
 * a digest's table monospaced, the links as buttons). All text is in `TextRun`s, which Teams never
 * reads as Markdown, so a name others chose cannot become a link or a mention. A table is
 * shortened (its last line counting the rows left out) until the body fits 28 KB.
 */
export function teamsMessage(notice: Notice): TeamsMessage {
  let tableMax: number = TEAMS_LIMITS.table;
  let message = card(notice, tableMax);
  while (teamsBodyBytes(message) > TEAMS_LIMITS.bodyBytes && notice.table && tableMax > 0) {
    tableMax = tableMax > 500 ? Math.floor(tableMax / 2) : 0;
    message = card(notice, tableMax);
  }
  return message;
}
