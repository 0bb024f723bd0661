/** What the local heuristic knows of a figure without any model. */
export interface FigureFacts {
  mime_type: string | null;
  width: number | null;
  height: number | null;
  ocr_text: string | null;
  section_name: string | null;
}

export interface Annotation {
  annotation_json: {
    image_type: string;
    summary: string;
    entities: string[];
    [key: string]: unknown;
  };
  annotation_quality_score: number;
}

/**
 * An honest annotation from facts at hand (no model): the image's kind from its
 * shape and text, a summary that says what is known, and no invented entities.
 * Its low quality score tells readers it is a heuristic.
 */
export function localAnnotation(f: FigureFacts): Annotation {
  const text = (f.ocr_text ?? '').replace(/\s+/g, ' ').trim();
  const ratio = f.width && f.height ? f.width / f.height : null;
  const imageType =
    text.length > 200
      ? 'document_scan'
      : text.length > 20
        ? 'diagram'
        : ratio && (ratio > 2.5 || ratio < 0.4)
          ? 'banner'
          : 'photo';
  const size = f.width && f.height ? `${f.width}x${f.height} ` : '';
  const where = f.section_name ? ` in section "${f.section_name}"` : '';
  const summary = text
    ? `${size}${imageType}${where} containing text: ${text.slice(0, 300)}`
    : `${size}${imageType}${where}; no text recognised`;
  return {
    annotation_json: { image_type: imageType, summary, entities: [], heuristic: true },
    annotation_quality_score: text ? 0.3 : 0.1,
  };
}
