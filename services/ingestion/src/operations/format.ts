import { systemClock } from '@reports/platform';
import { EventType, REPORTS_SUBJECTS, type PipelineEvent } from '@reports/contracts';

/** What `events tail` shows: every filter is optional. */
export interface TailFilter {
  tenant?: string | undefined;
  report?: string | undefined;
  types?: EventType[] | undefined;
  /** Start of the history to show; absent: only new events. */
  since?: Date | undefined;
}

/**
 * Parses `--since`: a duration back from `now` (`90s`, `15m`, `2h`, `7d`, combined as
 * `1h30m`) or an ISO 8601 time. Throws with a message naming the accepted forms.
 */
export function parseSince(text: string, now: Date = systemClock.now()): Date {
  const trimmed = text.trim();
  const duration = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(trimmed);
  if (duration && trimmed !== '') {
    const [, d, h, m, s] = duration.map((v) => Number(v ?? 0));
    const ms = (((d! * 24 + h!) * 60 + m!) * 60 + s!) * 1000;
    return new Date(now.getTime() - ms);
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) {
    const at = new Date(trimmed);
    if (!Number.isNaN(at.getTime())) return at;
  }
  throw new Error(
    `--since ${JSON.stringify(text)}: give a duration (90s, 15m, 2h, 7d, 1h30m) or an ISO time (2026-01-31T12:00:00Z)`,
  );
}

/** Parses `--type`: comma-separated event types, each checked against the catalogue. */
export function parseTypes(text: string): EventType[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .map((t) => {
      const parsed = EventType.safeParse(t);
      if (!parsed.success)
        throw new Error(`--type ${t}: not an event type (${EventType.options.join(', ')})`);
      return parsed.data;
    });
}

/**
 * The one subject filter JetStream applies (NATS 2.9 takes one per consumer):
 * tenant, report and a single type narrow it; several types are filtered here.
 */
export function tailSubject(filter: TailFilter): string {
  if (!filter.tenant && !filter.report && filter.types?.length !== 1) return REPORTS_SUBJECTS;
  const type = filter.types?.length === 1 ? filter.types[0] : '*';
  return `reports.${filter.tenant ?? '*'}.${filter.report ?? '*'}.${type}`;
}

/** Whether an event passes the filters the subject could not express. */
export function matches(event: PipelineEvent, filter: TailFilter): boolean {
  if (filter.tenant && event.tenant_id !== filter.tenant) return false;
  if (filter.report && event.report_id !== filter.report) return false;
  if (filter.types?.length && !filter.types.includes(event.type)) return false;
  return true;
}

function short(id: string): string {
  return id.slice(0, 8);
}

function quote(value: unknown): string {
  if (typeof value === 'string') return /^[\w./:@-]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/** `key=value` pairs of an event's data, in the schema's order. */
function dataSummary(event: PipelineEvent): string {
  const data = event.data as Record<string, unknown>;
  const skip = new Set(event.type === 'ReportUploaded' ? ['object_key', 'sha256'] : []);
  return Object.entries(data)
    .filter(([key]) => !skip.has(key))
    .map(([key, value]) => `${key}=${quote(value)}`)
    .join(' ');
}

/**
 * One event as one human-readable line:
 * `<occurred_at>  #<seq>  <Type>  tenant=<8> report=<8> [attachment=<8>] gen=<n>  <data>`.
 * Ids are cut to 8 characters (enough to grep; `--json` has them whole).
 */
export function formatEventLine(event: PipelineEvent, seq: number): string {
  const target = event.target_kind === 'attachment' ? ` attachment=${short(event.target_id)}` : '';
  return [
    event.occurred_at,
    `#${seq}`.padEnd(7),
    event.type.padEnd(16),
    `tenant=${short(event.tenant_id)} report=${short(event.report_id)}${target} gen=${event.generation}`,
    dataSummary(event),
  ]
    .join('  ')
    .trimEnd();
}

/** One event as one JSON line (`--json`). */
export function formatEventJson(event: PipelineEvent, seq: number, subject: string): string {
  return JSON.stringify({ seq, subject, event });
}
