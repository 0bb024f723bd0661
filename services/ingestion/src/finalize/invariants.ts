import type { EventOf } from '@reports/contracts';
import type { TargetRowCounts } from './store.js';

/** What the events of a target's generation say its rows hold. */
export interface ExpectedOutputs {
  parsed: Pick<EventOf<'ReportParsed'>['data'], 'sections' | 'tables' | 'figures'> | null;
  annotated: Pick<EventOf<'FiguresAnnotated'>['data'], 'figures'> | null;
  embedded: Pick<
    EventOf<'ChunksEmbedded'>['data'],
    'chunks' | 'embedded' | 'embedding_status'
  > | null;
}

/**
 * Every way the rows disagree with the events, as sentences for people (empty when they
 * agree): the finalize stage's check before `ready`, and the verify command's.
 */
export function disagreements(expected: ExpectedOutputs, rows: TargetRowCounts): string[] {
  const out: string[] = [];
  const compare = (what: string, have: number, want: number) => {
    if (have !== want) out.push(`${what}: ${have} rows, the events say ${want}`);
  };
  if (!expected.parsed) out.push('no parse output recorded');
  else {
    compare('sections', rows.sections, expected.parsed.sections);
    compare('tables', rows.tables, expected.parsed.tables);
    compare('figures', rows.figures, expected.parsed.figures);
  }
  if (expected.annotated) {
    compare('annotated figures', rows.figures, expected.annotated.figures);
    if (rows.pending_figures > 0) out.push(`figures: ${rows.pending_figures} still pending`);
  }
  if (expected.embedded) {
    compare('chunks', rows.chunks, expected.embedded.chunks);
    compare('embedded chunks', rows.embedded_chunks, expected.embedded.embedded);
    const { embedding_status: status, chunks, embedded } = expected.embedded;
    const consistent =
      (status === 'complete' && embedded === chunks) ||
      (status === 'skipped' && embedded === 0) ||
      (status === 'failed' && embedded === 0 && chunks > 0) ||
      (status === 'partial' && embedded > 0 && embedded < chunks);
    if (!consistent)
      out.push(`embedding_status ${status} with ${embedded} of ${chunks} chunks embedded`);
  }
  return out;
}
