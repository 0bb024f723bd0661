import pLimit from 'p-limit';
import type { EventOf } from '@reports/contracts';
import {
  ObjectNotFoundError,
  ObjectTooLargeError,
  announceCommitted,
  fenceOutput,
  recordOutput,
  withTransaction,
  type ObjectStore,
  type Pool,
  type StageDefinition,
  type StageUsage,
} from '@reports/platform';
import { VISION_MIME_TYPES, type FigureImage, type VisionModel } from '../models/annotator.js';
import { CostMeter, priceOf } from '../models/prices.js';
import { localAnnotation } from './localAnnotation.js';
import {
  earlierAttemptsCost,
  pendingFigures,
  targetExists,
  writeAnnotations,
  type FigureAnnotation,
  type PendingFigure,
} from './store.js';
import { annotateWithModel } from './modelAnnotation.js';

export interface AnnotateDeps {
  pool: Pool;
  objectStore: ObjectStore;
  /** The configured vision model; null means the local heuristic only. */
  model: VisionModel | null;
  /** Figures annotated at the same time. */
  concurrency: number;
}

/** An annotation to write for one figure, and who made it. */
interface Written extends FigureAnnotation {
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
type AnnotatedData = EventOf<'FiguresAnnotated'>['data'];

export function annotateStage(deps: AnnotateDeps): StageDefinition<'ReportParsed'> {
  const limit = pLimit(deps.concurrency);
  return {
    stage: 'annotate',
    async run(event, ctx) {
      if (!(await targetExists(deps.pool, event.target_kind, event.target_id)))
        return { outcome: 'skipped', reason: 'target deleted' };
      const outputKey = {
        tenant_id: event.tenant_id,
        report_id: event.report_id,
        target_id: event.target_id,
        stage: 'annotate' as const,
        generation: event.generation,
      };
      // A generation's output is written once: a later attempt announces it again.
      const early = await withTransaction(deps.pool, (client) =>
        fenceOutput<AnnotatedData>(client, outputKey),
      );
      if (early.state !== 'write') return announceCommitted('FiguresAnnotated', early, ctx.logger);
      const pending = await pendingFigures(deps.pool, event.target_id);

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
      // Cost of every attempt of this generation (earlier ones are in stage_runs).
      const cost =
        (await earlierAttemptsCost(deps.pool, event.target_id, event.generation)) + meter.cents;
      const outcome = await withTransaction(deps.pool, async (client) => {
        if (!(await targetExists(client, event.target_kind, event.target_id, true)))
          return { kind: 'deleted' as const };
        const fence = await fenceOutput<AnnotatedData>(client, outputKey);
        if (fence.state !== 'write') return { kind: 'fenced' as const, fence };
        const figures = await writeAnnotations(client, event.target_id, written);
        if (deferred.length > 0) return { kind: 'partial' as const };
        const data: AnnotatedData = { figures, annotated: written.length, cost_cents: cost };
        await recordOutput(client, outputKey, ctx.deliveryCount, data);
        return { kind: 'written' as const, data };
      });
      if (outcome.kind === 'deleted') return { outcome: 'skipped', reason: 'target deleted' };
      if (outcome.kind === 'fenced')
        return announceCommitted('FiguresAnnotated', outcome.fence, ctx.logger, usage);

      if (deferred.length > 0) {
        return {
          outcome: 'retry',
          reason: `${deferred.length} figure(s) not annotated, model unavailable: ${deferred[0]!.deferred}`,
          usage,
        };
      }
      if (outcome.kind !== 'written') throw new Error('unreachable: deferred figures left');
      return {
        outcome: 'done',
        emit: { type: 'FiguresAnnotated', data: outcome.data },
        usage,
      };
    },
  };
}
