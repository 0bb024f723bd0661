import { withTransaction, type Pool, type StageDefinition } from '@reports/platform';
import { localAnnotation, type FigureFacts } from './localAnnotation.js';

/**
 * Annotate: every figure of the target still `pending` gets an annotation. The
 * local default is the heuristic above (`annotation_source: local`); model
 * providers come with the figure work. A target without figures passes straight on.
 */
export function annotateStage(deps: { pool: Pool }): StageDefinition<'ReportParsed'> {
  return {
    stage: 'annotate',
    async run(event) {
      const result = await withTransaction(deps.pool, async (client) => {
        const table = event.target_kind === 'report' ? 'reports' : 'attachments';
        const { rowCount } = await client.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, [
          event.target_id,
        ]);
        if (!rowCount) return null;
        const { rows } = await client.query<FigureFacts & { id: string }>(
          `SELECT id, mime_type, width, height, ocr_text, section_name FROM figures
            WHERE target_id = $1 AND annotation_source = 'pending' ORDER BY order_in_doc`,
          [event.target_id],
        );
        for (const figure of rows) {
          const a = localAnnotation(figure);
          await client.query(
            `UPDATE figures SET annotation_source = 'local', annotation_json = $2, annotation_quality_score = $3 WHERE id = $1`,
            [figure.id, JSON.stringify(a.annotation_json), a.annotation_quality_score],
          );
        }
        const { rows: count } = await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM figures WHERE target_id = $1',
          [event.target_id],
        );
        return { figures: count[0]?.n ?? 0, annotated: rows.length };
      });
      if (!result) return { outcome: 'skipped', reason: 'target deleted' };
      return {
        outcome: 'done',
        emit: { type: 'FiguresAnnotated', data: { ...result, cost_cents: 0 } },
        usage: {
          provider: 'local',
          model: 'local-heuristic',
          cost_cents: 0,
          units: { figures: result.annotated },
        },
      };
    },
  };
}
