/** Kinds an OCR engine reads. */
export type OcrInputKind = 'pdf' | 'png' | 'jpeg' | 'webp';

/** An image the engine found on a page (a figure candidate). */
export interface OcrImage {
  /** Engine-local id, stable within one result. */
  id: string;
  bytes: Buffer | null;
  mime_type: string | null;
  /** Position on the page in the engine's units, when known. */
  bbox: { x: number; y: number; width: number; height: number } | null;
  /** The engine's own annotation of the image, when it made one (e.g. Mistral's). */
  annotation: Record<string, unknown> | null;
}

export interface OcrPage {
  /** 0-based page index in the document. */
  index: number;
  /** The page's text as markdown (headings with `#`, tables as GFM). */
  markdown: string;
  images: OcrImage[];
}

/** What an engine read from a document, and what it cost. */
export interface OcrResult {
  pages: OcrPage[];
  provider: string;
  model: string;
  /** Cost in integer minor units (cents). */
  cost_cents: number;
  /** Whether image annotations were requested and returned. */
  annotated: boolean;
}

/**
 * Reads text (and images) from scans and images. The local engine runs
 * Tesseract; a remote one (Mistral OCR) reads whole documents.
 */
export interface OcrEngine {
  readonly provider: string;
  /**
   * Whether the engine reads whole documents (every page and its images in one call, as
   * Mistral OCR does) rather than the pages the local parser cannot read. Such an engine is
   * given every PDF and image upload (spec: ingestion rule 2).
   */
  readonly readsWholeDocuments: boolean;
  /**
   * Recognises the document. `pages` restricts the work to those 0-based page
   * indexes (the local engine OCRs only pages without a usable text layer).
   */
  recognise(input: {
    kind: OcrInputKind;
    bytes: Buffer;
    pages?: number[];
    signal?: AbortSignal;
  }): Promise<OcrResult>;
}
