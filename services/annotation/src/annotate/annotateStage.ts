import pLimit from 'p-limit';
import {
  ObjectNotFoundError,
  ObjectTooLargeError,
  withTransaction,
  type ObjectStore,
  type Pool,
  type StageDefinition,
  type StageUsage,
} from '@reports/platform';
import { VISION_MIME_TYPES, type FigureImage, type VisionModel } from '../models/annotator.js';
import { CostMeter, priceOf } from '../models/prices.js';
import { localAnnotation, type FigureFacts } from './localAnnotation.js';
import { annotateWithModel } from './modelAnnotation.js';

export interface AnnotateDeps {
  pool: Pool;
  objectStore: ObjectStore;
  /** The configured vision model; null means the local heuristic only. */
  model: VisionModel | null;
  /** Figures annotated at the same time. */
  concurrency: number;
}

interface PendingFigure extends FigureFacts {
  id: string;
  object_key: string;
  thumbnail_key: string | null;
  page_number: number | null;
}

/** An annotation to write for one figure. */
interface Written {
  id: string;
  source: string;
  annotation_json: Record<string, unknown>;
  score: number;
  by: 'model' | 'local';
}
/** A figure left pending for a later attempt (the provider was unavailable). */
interface Deferred {
  id: string;
  deferred: string;
}
type FigureResult = Written | Deferred;

/** Larger originals go to the model as their thumbnail, or not at all. */
const MAX_MODEL_IMAGE_BYTES = 8 * 1024 * 1024;

async function readImage(
  store: ObjectStore,
  key: string,
  mime: string | null,
): Promise<FigureImage | null> {
  if (!mime || !VISION_MIME_TYPES.has(mime)) return null;
  try {
    return {
      bytes: await store.getBuffer(key, { maxBytes: MAX_MODEL_IMAGE_BYTES }),
      mime_type: mime,
    };
  } catch (error) {
    if (error instanceof ObjectTooLargeError || error instanceof ObjectNotFoundError) return null;
    throw error;
  }
}

/** The image a model is shown: the original when it is small enough and readable, else the thumbnail. */
async function imageFor(store: ObjectStore, figure: PendingFigure): Promise<FigureImage | null> {
  const original = await readImage(store, figure.object_key, figure.mime_type);
  if (original) return original;
  if (!figure.thumbnail_key) return null;
  const stat = await store.stat(figure.thumbnail_key);
  return readImage(store, figure.thumbnail_key, stat?.contentType ?? null);
}

function local(figure: PendingFigure): FigureResult {
  const a = localAnnotation(figure);
  return {
    id: figure.id,
    source: 'local',
    annotation_json: a.annotation_json,
    score: a.annotation_quality_score,
    by: 'local',
  };
}

/**
 * Annotate: every figure of the target still `pending` (thin or skipped OCR
 * annotation) gets an annotation. With a vision model configured it is asked,
 * a few figures at a time; a malformed answer is asked again once, and a
 * figure whose model answers are unusable keeps the local heuristic
 * (`annotation_source: local`) without failing the report. When the provider
 * stays unavailable (429/5xx after the SDK's backoff), the annotated figures
 * are kept and the stage is retried for the rest; the last attempt gives those
 * the heuristic. Without a model every pending figure gets the heuristic.
 */
export function annotateStage(deps: AnnotateDeps): StageDefinition<'ReportParsed'> {
  const limit = pLimit(deps.concurrency);
  return {
    stage: 'annotate',
    async run(event, ctx) {
      const table = event.target_kind === 'report' ? 'reports' : 'attachments';
      const { rowCount } = await deps.pool.query(`SELECT 1 FROM ${table} WHERE id = $1`, [
        event.target_id,
      ]);
      if (!rowCount) return { outcome: 'skipped', reason: 'target deleted' };
      const { rows: pending } = await deps.pool.query<PendingFigure>(
        `SELECT id, object_key, thumbnail_key, mime_type, width, height, ocr_text, section_name, page_number
           FROM figures WHERE target_id = $1 AND annotation_source = 'pending' ORDER BY order_in_doc`,
        [event.target_id],
      );

      const model = deps.model;
      const meter = new CostMeter(model ? priceOf(model.model) : null);
      let malformed = 0;
      const results = await Promise.all(
        pending.map((figure) =>
          limit(async (): Promise<FigureResult> => {
            if (!model) return local(figure);
            const image = await imageFor(deps.objectStore, figure);
            if (!image) return local(figure);
            const outcome = await annotateWithModel(
              model,
              image,
              {
                section_name: figure.section_name,
                page_number: figure.page_number,
                ocr_text: figure.ocr_text,
              },
              ctx.signal,
            );
            outcome.usage.forEach((u) => meter.add(u));
            malformed += outcome.malformed;
            switch (outcome.kind) {
              case 'annotated':
                return {
                  id: figure.id,
                  source: model.source,
                  annotation_json: outcome.annotation,
                  score: outcome.score,
                  by: 'model',
                };
              case 'fallback':
                ctx.logger.warn(
                  { figure_id: figure.id, reason: outcome.reason },
                  'model annotation unusable; the figure keeps the local heuristic',
                );
                return local(figure);
              case 'unavailable':
                if (ctx.lastAttempt) {
                  ctx.logger.warn(
                    { figure_id: figure.id, reason: outcome.reason },
                    'model unavailable on the last attempt; the figure gets the local heuristic',
                  );
                  return local(figure);
                }
                return { id: figure.id, deferred: outcome.reason };
              default: {
                const unreachable: never = outcome;
                return unreachable;
              }
            }
          }),
        ),
      );

      const written = results.filter((r): r is Written => !('deferred' in r));
      const deferred = results.filter((r): r is Deferred => 'deferred' in r);
      const figures = await withTransaction(deps.pool, async (client) => {
        const { rowCount: exists } = await client.query(
          `SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`,
          [event.target_id],
        );
        if (!exists) return null;
        for (const r of written) {
          // Only a figure still pending: a parse rerun meanwhile replaced the figures.
          await client.query(
            `UPDATE figures SET annotation_source = $2, annotation_json = $3, annotation_quality_score = $4
              WHERE id = $1 AND annotation_source = 'pending'`,
            [r.id, r.source, JSON.stringify(r.annotation_json), r.score],
          );
        }
        const { rows } = await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM figures WHERE target_id = $1',
          [event.target_id],
        );
        return rows[0]?.n ?? 0;
      });
      if (figures === null) return { outcome: 'skipped', reason: 'target deleted' };

      const byModel = written.filter((r) => r.by === 'model').length;
      const usage: StageUsage = {
        provider: model?.source ?? 'local',
        model: model?.model ?? 'local-heuristic',
        cost_cents: meter.cents,
        units: {
          figures: written.length,
          model_figures: byModel,
          local_figures: written.length - byModel,
          deferred_figures: deferred.length,
          input_tokens: meter.inputTokens,
          output_tokens: meter.outputTokens,
          malformed_answers: malformed,
          priced: meter.priced ? 1 : 0,
        },
      };
      if (deferred.length > 0) {
        return {
          outcome: 'retry',
          reason: `${deferred.length} figure(s) not annotated, model unavailable: ${deferred[0]!.deferred}`,
          usage,
        };
      }
      // The stage's cost is what every attempt of this generation spent (earlier ones are in stage_runs).
      const { rows: prior } = await deps.pool.query<{ cents: string }>(
        `SELECT coalesce(sum(cost_cents), 0) AS cents FROM stage_runs
          WHERE target_id = $1 AND stage = 'annotate' AND generation = $2`,
        [event.target_id, event.generation],
      );
      return {
        outcome: 'done',
        emit: {
          type: 'FiguresAnnotated',
          data: {
            figures,
            annotated: written.length,
            cost_cents: Number(prior[0]?.cents ?? 0) + meter.cents,
          },
        },
        usage,
      };
    },
  };
}
