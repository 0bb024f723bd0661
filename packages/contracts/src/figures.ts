import { z } from 'zod';

/**
 * Who wrote a figure's annotation. `pending` waits for the annotate stage;
 * `local` is the heuristic (no model); `mistral` came with Mistral OCR or from
 * a Mistral vision model; `openai` (or the label configured for an
 * OpenAI-compatible endpoint, e.g. `gemini`) from an OpenAI-compatible vision
 * model. A free string so a new provider is not a breaking change.
 */
export const AnnotationSource = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/);
export type AnnotationSource = z.infer<typeof AnnotationSource>;

/** Image kinds the annotators are asked to choose from; others are kept but score lower. */
export const KNOWN_IMAGE_TYPES = [
  'photo',
  'aerial_photo',
  'floor_plan',
  'site_plan',
  'elevation_drawing',
  'technical_drawing',
  'map',
  'diagram',
  'chart',
  'table',
  'document_scan',
  'screenshot',
  'logo',
  'signature',
  'other',
] as const;

/**
 * The annotation of one figure (spec: `image_type`, `summary`, `entities`; other
 * keys exist). Entities are names of things seen (materials, defects, rooms,
 * labels); a model may give them as objects, which are kept as they came.
 */
export const AnnotationJson = z.looseObject({
  image_type: z.string().trim().min(1).max(100),
  summary: z.string().max(4000),
  entities: z.array(z.union([z.string().max(500), z.record(z.string(), z.unknown())])).max(100),
});
export type AnnotationJson = z.infer<typeof AnnotationJson>;

/**
 * The JSON Schema of {@link AnnotationJson} as sent to models that take one
 * (Mistral OCR's `bbox_annotation_format`, OpenAI's `json_schema` response format).
 */
export const ANNOTATION_JSON_SCHEMA = {
  type: 'object',
  properties: {
    image_type: {
      type: 'string',
      description: `What the image is; one of ${KNOWN_IMAGE_TYPES.join(', ')}.`,
    },
    summary: {
      type: 'string',
      description:
        'Two or three factual sentences on what the image shows, for someone reading a property report.',
    },
    entities: {
      type: 'array',
      items: { type: 'string' },
      description:
        'Things visible or named in the image: rooms, materials, defects, equipment, labels, measurements.',
    },
  },
  required: ['image_type', 'summary', 'entities'],
  additionalProperties: false,
} as const;

/** A summary shorter than this is too thin to stand as a figure's annotation. */
export const MIN_RICH_SUMMARY_CHARS = 40;

/**
 * Whether an annotation (as it came from OCR, or absent) is too thin to keep:
 * missing, no `image_type`, or a summary under {@link MIN_RICH_SUMMARY_CHARS}
 * characters. A thin annotation leaves the figure `pending` for the model
 * fallback of the annotate stage (spec: ingestion rule 3).
 */
export function isThinAnnotation(annotation: unknown): boolean {
  if (typeof annotation !== 'object' || annotation === null || Array.isArray(annotation))
    return true;
  const a = annotation as Record<string, unknown>;
  if (typeof a.image_type !== 'string' || a.image_type.trim() === '') return true;
  return typeof a.summary !== 'string' || a.summary.trim().length < MIN_RICH_SUMMARY_CHARS;
}

const SUMMARY_FULL_CHARS = 200;
const ENTITIES_FULL = 5;

/**
 * `annotation_quality_score`, in [0, 1], two decimals. How much a reader (or
 * retrieval) can get out of the annotation, from what can be checked without
 * looking at the image:
 *
 * - `image_type`: 0.3 when it is one of {@link KNOWN_IMAGE_TYPES}, 0.15 for any
 *   other non-empty string, 0 when missing;
 * - summary length: up to 0.5, linear to 200 characters;
 * - entities: up to 0.2, linear to 5 distinct non-empty entities.
 *
 * A missing annotation scores 0. The local heuristic scores itself lower on
 * purpose (0.1 or 0.3): it has no model behind it.
 */
export function annotationQualityScore(annotation: unknown): number {
  if (typeof annotation !== 'object' || annotation === null || Array.isArray(annotation)) return 0;
  const a = annotation as Record<string, unknown>;
  const type = typeof a.image_type === 'string' ? a.image_type.trim().toLowerCase() : '';
  const typeScore =
    type === '' ? 0 : (KNOWN_IMAGE_TYPES as readonly string[]).includes(type) ? 0.3 : 0.15;
  const summary = typeof a.summary === 'string' ? a.summary.trim() : '';
  const summaryScore = 0.5 * Math.min(summary.length / SUMMARY_FULL_CHARS, 1);
  const entities = Array.isArray(a.entities)
    ? new Set(
        a.entities
          .map((e) => (typeof e === 'string' ? e.trim().toLowerCase() : JSON.stringify(e)))
          .filter((e) => e !== '' && e !== '{}'),
      ).size
    : 0;
  const entityScore = 0.2 * Math.min(entities / ENTITIES_FULL, 1);
  return Math.round((typeScore + summaryScore + entityScore) * 100) / 100;
}

/** One figure of a report folder (spec: Figure), with expiring signed links. */
export const Figure = z.object({
  id: z.uuid(),
  /** The parent report, also for a figure of an attachment. */
  report_id: z.uuid(),
  /** The attachment the figure came from; null for the main file. */
  attachment_id: z.uuid().nullable(),
  /** The section the figure sits in; null when the document has none there. */
  section_name: z.string().nullable(),
  /** 1-based page for paged formats (PDF); null for HTML, DOCX and MHTML. */
  page_number: z.number().int().nullable(),
  order_in_doc: z.number().int(),
  /** Expiring signed URL of the thumbnail (of the original when no thumbnail exists). */
  storage_url: z.string(),
  /** Expiring signed URL of the original image. */
  original_url: z.string(),
  /** When both URLs stop working (ISO 8601). */
  url_expires_at: z.string(),
  mime_type: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  annotation_source: z.string(),
  annotation_quality_score: z.number().nullable(),
  annotation_json: z.record(z.string(), z.unknown()).nullable(),
});
export type Figure = z.infer<typeof Figure>;

export const FigureList = z.array(Figure);
export type FigureList = z.infer<typeof FigureList>;

/** Query of `GET /ingest/{id}/figures`: a client may ask for links that expire sooner. */
export const FigureListQuery = z.object({
  ttl_seconds: z.coerce.number().int().min(1).max(604_800).optional(),
});
export type FigureListQuery = z.infer<typeof FigureListQuery>;
