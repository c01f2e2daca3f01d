import type { ActionsBlock, Button, KnownBlock } from '@slack/types';
import type { Notice } from '../../domain/notice';
import { noticeTableText } from '../../domain/noticeTableText';
import { plainText, textParts } from '../../domain/verbatimText';

/** Slack's limits on what we send (Block Kit reference). */
export const SLACK_LIMITS = {
  headerText: 150,
  sectionText: 3_000,
  fields: 10,
  fieldText: 2_000,
  buttonText: 75,
  url: 3_000,
  blocks: 50,
  text: 40_000,
} as const;

/** A Slack incoming-webhook message: Block Kit blocks and the plain `text` fallback (notifications, screen readers). */
export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

const SEVERITY_MARK = { critical: ':rotating_light:', warning: ':warning:', info: ':information_source:' } as const;

/**
 * Escapes the three characters Slack's mrkdwn gives meaning to, so text others chose cannot
 * become a mention (`<!channel>`) or a link (`<https://evil|Revoke>`).
 */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Notice text as mrkdwn: escaped, each verbatim span (a name others chose) as inline code, which cannot hold a backtick. */
function mrkdwn(text: string): string {
  return textParts(text)
    .map((p) => (p.verbatim ? `\`${escapeSlack(p.text.replace(/`/g, 'ˋ'))}\`` : escapeSlack(p.text)))
    .join('');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The Slack message of a notice. */
export function slackMessage(notice: Notice): SlackMessage {
  const fields = notice.fields.slice(0, SLACK_LIMITS.fields).map((f) => ({
    type: 'mrkdwn' as const,
    text: cut(`*${escapeSlack(f.label)}*\n${mrkdwn(f.value)}`, SLACK_LIMITS.fieldText),
  }));
  const buttons: Button[] = notice.links
    .filter((l) => l.url.length <= SLACK_LIMITS.url)
    .map((l) => ({
      type: 'button',
      text: { type: 'plain_text', text: cut(l.label, SLACK_LIMITS.buttonText) },
      url: l.url,
      ...(l.action === 'revoke' || l.action === 'revoke-all' ? { style: 'danger' as const } : {}),
    }));
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(plainText(notice.title), SLACK_LIMITS.headerText) } },
    { type: 'section', text: { type: 'mrkdwn', text: cut(`${SEVERITY_MARK[notice.severity]} ${mrkdwn(notice.summary)}`, SLACK_LIMITS.sectionText) } },
  ];
  if (fields.length > 0) blocks.push({ type: 'section', fields });
  if (notice.table) {
    // A code block keeps the columns aligned; its text is escaped like any other (a label is someone's choice).
    const table = noticeTableText(notice.table, { max: SLACK_LIMITS.sectionText - 8, escape: escapeSlack });
    if (table.text !== '') blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `\`\`\`\n${table.text}\n\`\`\`` } });
  }
  if (buttons.length > 0) blocks.push({ type: 'actions', elements: buttons } satisfies ActionsBlock);
  const text = cut(`${escapeSlack(plainText(notice.title))}: ${escapeSlack(plainText(notice.summary))}`, SLACK_LIMITS.text);
  return { text, blocks };
}
