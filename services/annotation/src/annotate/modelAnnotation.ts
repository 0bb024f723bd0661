import { annotationQualityScore, type AnnotationJson } from '@reports/contracts';
import {
  AnnotatorError,
  SYSTEM_PROMPT,
  parseModelAnnotation,
  userPrompt,
  type FigureContext,
  type FigureImage,
  type ModelUsage,
  type VisionModel,
} from '../models/annotator.js';

/** How a model annotation of one figure ended. */
export type ModelOutcome =
  | {
      kind: 'annotated';
      annotation: AnnotationJson;
      score: number;
      usage: ModelUsage[];
      malformed: number;
    }
  /** Two malformed answers, or a refusal: the figure keeps the local heuristic. */
  | { kind: 'fallback'; reason: string; usage: ModelUsage[]; malformed: number }
  /** The provider is unavailable after the SDK's retries: worth a later attempt. */
  | { kind: 'unavailable'; reason: string; usage: ModelUsage[]; malformed: number };

/** Answers tried per figure: a malformed one is asked again once (spec), then the heuristic stays. */
const MAX_ANSWERS = 2;

/**
 * Asks the model for one figure's annotation. A malformed answer (not JSON, or
 * not the annotation shape) is retried once; 429 and 5xx were already retried
 * with backoff by the SDK.
 */
export async function annotateWithModel(
  model: VisionModel,
  image: FigureImage,
  context: FigureContext,
  signal: AbortSignal,
): Promise<ModelOutcome> {
  const usage: ModelUsage[] = [];
  let malformed = 0;
  const prompt = { system: SYSTEM_PROMPT, user: userPrompt(context) };
  for (let answer = 1; answer <= MAX_ANSWERS; answer++) {
    try {
      const result = await model.complete(prompt, image, signal);
      usage.push(result.usage);
      const annotation = parseModelAnnotation(result.content);
      if (annotation) {
        return {
          kind: 'annotated',
          annotation,
          score: annotationQualityScore(annotation),
          usage,
          malformed,
        };
      }
      malformed += 1;
    } catch (error) {
      if (!(error instanceof AnnotatorError)) throw error;
      if (error.kind === 'malformed') {
        malformed += 1;
        continue;
      }
      if (error.kind === 'rejected')
        return { kind: 'fallback', reason: error.message, usage, malformed };
      return { kind: 'unavailable', reason: error.message, usage, malformed };
    }
  }
  return { kind: 'fallback', reason: `${malformed} malformed answers`, usage, malformed };
}
