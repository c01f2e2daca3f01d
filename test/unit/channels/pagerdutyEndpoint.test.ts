import { describe, expect, it } from 'vitest';
import { pagerdutyEndpoint } from '../../../functions/channels/pagerduty/pagerdutyEndpoint';

describe('pagerdutyEndpoint', () => {
  it('takes the full endpoint as documented (the EU service region too) or the API base, and gives the endpoint', () => {
    expect(pagerdutyEndpoint('https://events.eu.pagerduty.com/v2/enqueue')).toBe('https://events.eu.pagerduty.com/v2/enqueue');
    expect(pagerdutyEndpoint('https://events.pagerduty.com/v2/enqueue/')).toBe('https://events.pagerduty.com/v2/enqueue');
    expect(pagerdutyEndpoint('https://events.pagerduty.com')).toBe('https://events.pagerduty.com/v2/enqueue');
    expect(pagerdutyEndpoint('http://127.0.0.1:9/pagerduty/')).toBe('http://127.0.0.1:9/pagerduty/v2/enqueue');
  });
});
