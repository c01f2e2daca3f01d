import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { firstIssue } from '../../../functions/shared/firstIssue';

const job = z.union([z.object({ fanout: z.object({ id: z.string() }) }), z.object({ report: z.object({ notice: z.object({ id: z.string() }) }) })]);

describe('firstIssue', () => {
  it('names the field of the union option the value got furthest into', () => {
    const parsed = job.safeParse({ report: { notice: { id: 3 } } });
    expect(parsed.success).toBe(false);
    expect(firstIssue(parsed.error!, 'body')).toBe('report.notice.id: Invalid input: expected string, received number');
  });

  it('keeps the path of a union nested in an object', () => {
    const parsed = z.object({ body: job }).safeParse({ body: { fanout: {} } });
    expect(firstIssue(parsed.error!, 'whole')).toBe('body.fanout.id: Invalid input: expected string, received undefined');
  });

  it('names the whole value when it fits no option at all', () => {
    expect(firstIssue(job.safeParse('text').error!, 'body')).toMatch(/^body: /);
  });
});
