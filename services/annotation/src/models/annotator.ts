import { AnnotationJson, KNOWN_IMAGE_TYPES } from '@reports/contracts';

export {
  AnnotatorError,
  VISION_MIME_TYPES,
  dataUrl,
  type FigureImage,
  type ModelAnswer,
  type ModelUsage,
  type VisionModel,
} from '@reports/providers';

/** What the annotator is told about a figure besides its pixels. */
export interface FigureContext {
  section_name: string | null;
  page_number: number | null;
  /** Text found in or around the image (OCR), when any. */
  ocr_text: string | null;
}

export const SYSTEM_PROMPT = [
  'You annotate figures taken from property reports (building surveys, valuations, inspections).',
  'Answer with one JSON object and nothing else, with exactly these keys:',
  `"image_type": one of ${KNOWN_IMAGE_TYPES.map((t) => `"${t}"`).join(', ')};`,
  '"summary": two or three factual sentences on what the image shows that matters to someone reading the report (condition, defects, materials, rooms, measurements);',
  '"entities": a list of short strings naming things visible or written in the image.',
  'Describe only what is visible; do not guess addresses, people or values that are not shown.',
].join('\n');

const MAX_CONTEXT_TEXT = 1500;

/** The user turn: where the figure sits and the text found near it. Pure. */
export function userPrompt(context: FigureContext): string {
  const lines = ['Annotate this figure.'];
  if (context.section_name) lines.push(`It appears in the section "${context.section_name}".`);
  if (context.page_number !== null) lines.push(`It is on page ${context.page_number}.`);
  const text = (context.ocr_text ?? '').replace(/\s+/g, ' ').trim();
  if (text) lines.push(`Text recognised in or near it: ${text.slice(0, MAX_CONTEXT_TEXT)}`);
  return lines.join('\n');
}

/**
 * The annotation in a model's answer, or null when the answer is not one: the
 * text may be wrapped in a ```json fence; it must be a JSON object matching
 * {@link AnnotationJson}. Pure.
 */
export function parseModelAnnotation(content: string): AnnotationJson | null {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  const text = (fenced?.[1] ?? content).trim();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = AnnotationJson.safeParse(value);
  if (!parsed.success) return null;
  return { ...parsed.data, image_type: parsed.data.image_type.trim().toLowerCase() };
}
