import type { APIEmbed, RESTPostAPIWebhookWithTokenJSONBody } from 'discord-api-types/v10';
import type { Notice } from '../../domain/notice';
import { noticeTableText } from '../../domain/noticeTableText';
import { plainText, textParts } from '../../domain/verbatimText';

/** Discord's embed limits (developer docs, "Embed Limits"). */
export const DISCORD_LIMITS = {
  title: 256,
  description: 4_096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1_024,
  footer: 2_048,
  total: 6_000,
  embeds: 10,
} as const;

const COLOUR = { critical: 0xd32f2f, warning: 0xf9a825, info: 0x1976d2 } as const;

/** Escapes Discord markdown, so text others chose is shown as typed (mentions are off besides). */
export function escapeDiscord(text: string): string {
  return text.replace(/([\\*_~`|>#[\]()<@])/g, '\\$1');
}

/** Notice text as Discord markdown: escaped, each verbatim span (a name others chose) as inline code, which cannot hold a backtick. */
function markdown(text: string): string {
  return textParts(text)
    .map((p) => (p.verbatim ? `\`${p.text.replace(/`/g, 'ˋ')}\`` : escapeDiscord(p.text)))
    .join('');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The characters of an embed that count towards Discord's 6,000 total. */
export function embedLength(embed: APIEmbed): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.author?.name.length ?? 0) +
    (embed.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

/** The Discord webhook message of a notice: one embed within every limit, mentions off. */
export function discordMessage(notice: Notice): RESTPostAPIWebhookWithTokenJSONBody {
  const links = notice.links.map((l) => `[${escapeDiscord(l.label)}](<${l.url}>)`).join(' · ');
  const text = [markdown(notice.summary), links].filter((s) => s !== '').join('\n\n');
  // A table goes in a code block after the text, in what is left of the description (and of the 6,000 total, fields aside).
  const room = Math.min(DISCORD_LIMITS.description, DISCORD_LIMITS.total - 2 * DISCORD_LIMITS.title) - text.length - 10;
  const table = notice.table && room > 0 ? noticeTableText(notice.table, { max: room }).text : '';
  const description = cut([text, table === '' ? '' : `\`\`\`\n${table}\n\`\`\``].filter((s) => s !== '').join('\n\n'), DISCORD_LIMITS.description);
  const embed: APIEmbed = {
    title: cut(plainText(notice.title), DISCORD_LIMITS.title),
    description,
    color: COLOUR[notice.severity],
    timestamp: new Date(notice.at).toISOString(),
    footer: { text: `portfolio-sentinel · ${notice.type}` },
    fields: [],
  };
  for (const f of notice.fields.slice(0, DISCORD_LIMITS.fields)) {
    const field = {
      name: cut(escapeDiscord(f.label), DISCORD_LIMITS.fieldName),
      value: cut(markdown(f.value) || '-', DISCORD_LIMITS.fieldValue),
      inline: true,
    };
    if (embedLength({ ...embed, fields: [...(embed.fields ?? []), field] }) > DISCORD_LIMITS.total) break;
    embed.fields?.push(field);
  }
  return { embeds: [embed], allowed_mentions: { parse: [] } };
}
