import type { Command } from 'commander';
import * as z from 'zod';
import { renderChartPng } from '../../functions/mail/chart/chart';
import { sesSenderFrom } from '../../functions/runtime/factories';
import { buildMime, type InlineImage } from '../../functions/mail/send/mime';
import { EmailSendError } from '../../functions/mail/errors';
import type { EmailKind } from '../../functions/mail/render/views';
import { fromHeader } from '../../functions/services/delivery/mailDelivery';
import { curves, sampleImages, TIME_ZONE, views } from '../../local/mailSamples';
import { localEmailRenderer } from '../../local/localSystem';
import type { CliContext } from '../cliRuntime';
import { formatTable, plural, printJson, UsageError } from '../output';

/** What happened to the sample of one email kind. */
type SampleOutcome = { kind: EmailKind; subject: string } & ({ sent: true; sesMessageId: string } | { sent: false; reason: string });

const KINDS = Object.keys(views) as EmailKind[];

/**
 * `sentinel test-email <address>`: sends one sample of each email kind, built from fixture data
 * (the same views the mail tests use) with the real renderer, MIME assembly and SES sender, so an
 * operator can check delivery and rendering. Samples are marked `[sample]` in the subject; their
 * links point to example.com and do nothing.
 */
export function register(program: Command, context: CliContext): void {
  program
    .command('test-email')
    .argument('<address>', 'where to send the samples')
    .description(`send a sample of each email kind (${KINDS.join(', ')}) to an address, to check delivery and rendering`)
    .option('--kind <kind>', `only this kind (${KINDS.join(', ')})`)
    .option('--json', 'print the outcomes as JSON')
    .action(async (addressArg: string, options: { kind?: string; json?: boolean }) => {
      const address = z.email().safeParse(addressArg.trim());
      if (!address.success) throw new UsageError(`"${addressArg}" is not an email address`);
      if (options.kind !== undefined && !KINDS.includes(options.kind as EmailKind)) {
        throw new UsageError(`--kind must be one of ${KINDS.join(', ')}`);
      }
      const kinds = options.kind === undefined ? KINDS : [options.kind as EmailKind];
      const rt = await context.runtime();
      const deps = {
        renderer: localEmailRenderer(rt.settings),
        sender: sesSenderFrom(rt.settings),
        mailFrom: rt.settings.MAIL_FROM,
      };
      const outcomes: SampleOutcome[] = [];
      for (const kind of kinds) {
        const rendered = deps.renderer.render(kind, views[kind], { timeZone: TIME_ZONE });
        const subject = `[sample] ${rendered.subject}`;
        const raw = await buildMime({
          from: fromHeader(deps.mailFrom),
          to: [address.data],
          ...rendered,
          subject,
          unsubscribeUrl: views[kind].links.unsubscribeUrl,
          eventId: `test-email:${kind}:${rt.now()}`,
          inlineImages: kind === 'daily-report' ? [sampleChart()] : sampleImages(kind),
        });
        try {
          const { messageId } = await deps.sender.send({ raw, destinations: [address.data], source: deps.mailFrom });
          outcomes.push({ kind, subject, sent: true, sesMessageId: messageId });
        } catch (error) {
          if (!(error instanceof EmailSendError)) throw error;
          outcomes.push({ kind, subject, sent: false, reason: error.message });
        }
      }
      if (options.json) printJson(context.io, outcomes);
      else {
        context.io.out(
          formatTable(
            ['KIND', 'SUBJECT', 'OUTCOME'],
            outcomes.map((o) => [o.kind, o.subject, o.sent ? `sent (SES id ${o.sesMessageId})` : `not sent: ${o.reason}`]),
          ),
        );
      }
      const failed = outcomes.filter((o) => !o.sent);
      if (failed.length > 0) throw new Error(`${failed.length} of ${plural(outcomes.length, 'sample')} not sent to ${address.data}`);
    });
}

function sampleChart(): InlineImage {
  const ref = views['daily-report'].chart;
  const { equity, pnl } = curves();
  const cid = ref?.cid ?? 'equity-chart@sentinel';
  return {
    cid,
    filename: 'chart.png',
    contentType: 'image/png',
    content: renderChartPng({ equity, pnl, timeZone: TIME_ZONE, width: ref?.width ?? 544, height: ref?.height ?? 320 }),
  };
}
