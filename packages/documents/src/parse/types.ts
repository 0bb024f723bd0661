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

export interface ParsedDocument {
  kind: DocumentKind;
  title: string | null;
  page_count: number | null;
  sections: SectionDraft[];
  tables: TableDraft[];
}

export interface ParseOptions {
  /** Abort to stop parsing; the parse then fails with DocumentError 'timeout'. */
  signal?: AbortSignal;
  /** PDFs with more pages fail with DocumentError 'too_large' (default 2000). */
  maxPages?: number;
}
