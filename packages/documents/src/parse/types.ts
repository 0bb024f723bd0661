import type { DocumentKind } from '../kinds.js';

export interface SectionDraft {
  name: string;
  slug: string;
  /** Heading level, 1 = top; 0 for the untitled content before the first heading. */
  level: number;
  /** 0-based, in document order. */
  order: number;
  /** The section body as GitHub-flavoured markdown (the heading itself is not repeated). */
  markdown: string;
  /** 1-based pages (PDF only), null for formats without pages. */
  page_start: number | null;
  page_end: number | null;
}

export interface TableDraft {
  /** `order` of the section the table sits in. */
  section_order: number;
  /** 0-based across the whole document, in document order. */
  order: number;
  page_number: number | null;
  /** The table as a GFM markdown table; the same text appears in its section's markdown. */
  markdown: string;
  /** Cell texts, first row first (usually the header row); rows are padded to the same length. */
  rows: string[][];
}

/** An image found in the document, kept as a figure (tiny images and icons are not). */
export interface FigureDraft {
  /** `order` of the section the figure sits in. */
  section_order: number;
  /** 0-based across the whole document, in document order. */
  order: number;
  /** 1-based page (PDF), null for formats without pages. */
  page_number: number | null;
  /** The image as stored: the original bytes when PNG, JPEG, WEBP or GIF, else re-encoded as PNG. */
  bytes: Buffer;
  mime_type: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
  width: number;
  height: number;
  /** Alt text or caption the document gives the image, if any. */
  alt: string | null;
  /** Text recognised in the image (image uploads: the OCR'd page), if any. */
  ocr_text: string | null;
}

export interface ParsedDocument {
  kind: DocumentKind;
  title: string | null;
  page_count: number | null;
  sections: SectionDraft[];
  tables: TableDraft[];
  figures: FigureDraft[];
  /** 1-based pages whose text came from OCR (PDF: no usable text layer; images: the image). */
  ocr_pages: number[];
}

/** What the parser asks of an OCR engine; `OcrEngine.recognise` from @reports/providers fits. */
export type OcrFunction = (input: {
  kind: 'pdf' | 'png' | 'jpeg' | 'webp';
  bytes: Buffer;
  /** 0-based page indexes to read (PDF); all pages when absent. */
  pages?: number[];
  signal?: AbortSignal;
}) => Promise<{ pages: { index: number; markdown: string }[] }>;

export interface ParseOptions {
  /** Abort to stop parsing; the parse then fails with DocumentError 'timeout'. */
  signal?: AbortSignal;
  /** PDFs with more pages fail with DocumentError 'too_large' (default 2000). */
  maxPages?: number;
  /**
   * Reads pages without a usable text layer and image uploads. Without it such PDF pages are
   * left out (a PDF with no text at all fails `needs_ocr`) and images fail `needs_ocr`.
   */
  ocr?: OcrFunction;
}
