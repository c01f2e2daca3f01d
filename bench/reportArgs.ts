function option(argv: readonly string[], name: string, fallback: string): string {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
}

/** `bench/report.ts`'s options (throws a clear error on a bad one). */
export function parseReportArgs(argv: readonly string[]): {
  accounts: number;
  concurrency: number[];
  digests: boolean;
  digestRecipients: number;
  digestConcurrency: number;
} {
  const accounts = Number(option(argv, '--accounts', '1000'));
  const digestsOption = option(argv, '--digests', 'on');
  if (digestsOption !== 'on' && digestsOption !== 'off') throw new Error('--digests must be on or off');
  const digests = digestsOption === 'on';
  const concurrency = option(argv, '--concurrency', '1,4').split(',').map(Number);
  const digestRecipients = Number(option(argv, '--digest-recipients', '1000'));
  const digestConcurrency = Number(option(argv, '--digest-concurrency', '4'));
  if (!Number.isInteger(accounts) || accounts < (digests ? 50 : 1)) {
    throw new Error(
      digests
        ? '--accounts must be an integer of at least 50 (the 50-account digest draws on them; --digests off to skip it)'
        : '--accounts must be a positive integer',
    );
  }
  if (concurrency.some((c) => !Number.isInteger(c) || c < 1)) throw new Error('--concurrency must list positive integers, e.g. 1,4');
  if (!Number.isInteger(digestRecipients) || digestRecipients < 0) throw new Error('--digest-recipients must be a whole number');
  if (!Number.isInteger(digestConcurrency) || digestConcurrency < 1) throw new Error('--digest-concurrency must be a positive integer');
  return { accounts, concurrency, digests, digestRecipients, digestConcurrency };
}
