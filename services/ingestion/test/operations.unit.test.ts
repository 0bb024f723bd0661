import { describe, expect, it } from 'vitest';
import type { PipelineEvent } from '@reports/contracts';
import {
  formatEventLine,
  matches,
  parseSince,
  parseTypes,
  tailSubject,
} from '../src/operations/format.js';

const now = new Date('2026-01-31T12:00:00.000Z');
const tenant = '11111111-2222-4333-8444-555555555555';
const report = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

const parsed: PipelineEvent = {
  id: '99999999-8888-4777-8666-555555555555',
  type: 'ReportParsed',
  version: 1,
  occurred_at: '2026-01-31T11:59:58.123Z',
  tenant_id: tenant,
  report_id: report,
  target_kind: 'report',
  target_id: report,
  generation: 1,
  correlation_id: report,
  causation_id: null,
  data: { sections: 4, figures: 1, tables: 0, pages: null, cost_cents: 0 },
};

describe('--since', () => {
  it('reads a duration back from now', () => {
    expect(parseSince('15m', now).toISOString()).toBe('2026-01-31T11:45:00.000Z');
    expect(parseSince('1h30m', now).toISOString()).toBe('2026-01-31T10:30:00.000Z');
    expect(parseSince('2d', now).toISOString()).toBe('2026-01-29T12:00:00.000Z');
    expect(parseSince('90s', now).toISOString()).toBe('2026-01-31T11:58:30.000Z');
  });

  it('reads an ISO time as is', () => {
    expect(parseSince('2026-01-30T08:00:00Z', now).toISOString()).toBe('2026-01-30T08:00:00.000Z');
  });

  it('refuses anything else, naming the accepted forms', () => {
    expect(() => parseSince('yesterday', now)).toThrow(/duration .* or an ISO time/);
    expect(() => parseSince('', now)).toThrow();
  });
});

describe('--type', () => {
  it('accepts a comma-separated list of event types', () => {
    expect(parseTypes('ReportReady, StageFailed')).toEqual(['ReportReady', 'StageFailed']);
  });

  it('refuses an unknown type and lists the known ones', () => {
    expect(() => parseTypes('ReportDone')).toThrow(/not an event type .*ReportReady/);
  });
});

describe('the subject filter', () => {
  it('is the whole stream without filters', () => {
    expect(tailSubject({})).toBe('reports.>');
  });

  it('narrows to a tenant, a report and a single type', () => {
    expect(tailSubject({ tenant })).toBe(`reports.${tenant}.*.*`);
    expect(tailSubject({ report, types: ['StageFailed'] })).toBe(`reports.*.${report}.StageFailed`);
  });

  it('leaves several types to the client-side filter', () => {
    const filter = { tenant, types: ['ReportReady', 'StageFailed'] as const };
    expect(tailSubject({ ...filter, types: [...filter.types] })).toBe(`reports.${tenant}.*.*`);
    expect(matches(parsed, { types: ['ReportReady', 'StageFailed'] })).toBe(false);
    expect(matches(parsed, { types: ['ReportParsed'], report })).toBe(true);
  });
});

describe('one event as one line', () => {
  it('shows time, sequence, type, short ids and the data', () => {
    expect(formatEventLine(parsed, 42)).toBe(
      '2026-01-31T11:59:58.123Z  #42      ReportParsed      tenant=11111111 report=aaaaaaaa gen=1  sections=4 figures=1 tables=0 pages=null cost_cents=0',
    );
  });

  it('quotes a failure reason with spaces and names an attachment target', () => {
    const failed: PipelineEvent = {
      ...parsed,
      type: 'StageFailed',
      target_kind: 'attachment',
      target_id: '12345678-0000-4000-8000-000000000000',
      data: { stage: 'parse', error: 'corrupt: no pages', attempts: 1 },
    };
    expect(formatEventLine(failed, 7)).toContain(
      'attachment=12345678 gen=1  stage=parse error="corrupt: no pages" attempts=1',
    );
  });
});
