import type { Nodes, Root, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import {
  AnnotationJson,
  annotationQualityScore,
  isThinAnnotation,
  type DocumentKind,
} from '@reports/contracts';
import { DocumentError } from '../errors.js';
import { MAX_IMAGE_PIXELS, figureImage, probeImage } from '../images/image.js';
import { SlugMaker } from './sections.js';
import type { FigureDraft, ParsedDocument, SectionDraft, TableDraft } from './types.js';

/**
 * A whole-document OCR result (Mistral OCR: every page's markdown and its images in one call)
 * as a parsed document. The shapes are structural: `OcrResult` from @reports/providers fits.
 */

/** Kinds a whole-document OCR engine reads. */
export type OcrDocumentKind = Extract<DocumentKind, 'pdf' | 'png' | 'jpeg' | 'webp'>;

export function isOcrDocumentKind(kind: string): kind is OcrDocumentKind {
  return kind === 'pdf' || kind === 'png' || kind === 'jpeg' || kind === 'webp';
}

/** One image the engine extracted from a page. */
export interface OcrPageImage {
  id: string;
  bytes: Buffer | null;
  annotation: Record<string, unknown> | null;
}

/** One page the engine read: its markdown (headings with `#`, GFM tables) and images. */
export interface OcrDocumentPage {
  /** 0-based page index in the document. */
  index: number;
  markdown: string;
  images: OcrPageImage[];
}

/** What a whole-document engine read. */
export interface OcrDocumentResult {
  pages: OcrDocumentPage[];
  provider: string;
  /** Whether image annotations were requested and returned. */
  annotated: boolean;
}

/** A figure's annotation as the OCR engine made it, rich enough to keep (see isThinAnnotation). */
export interface OcrFigureAnnotation {
  source: string;
  annotation_json: AnnotationJson;
  score: number;
}

export interface OcrDocument {
  doc: ParsedDocument;
  /** Rich engine annotations by figure `order`; figures not here stay `pending`. */
  annotations: Map<number, OcrFigureAnnotation>;
}

/**
 * The engine's annotation when it is rich: a JSON object of the annotation
 * shape whose image_type and summary pass the thin-annotation rule. Thin,
 * malformed or skipped (large PDF) annotations give null: the figure is left
 * `pending` for the annotate stage's model. Pure.
 */
export function richAnnotation(
  annotation: Record<string, unknown> | null,
  source: string,
): OcrFigureAnnotation | null {
  if (isThinAnnotation(annotation)) return null;
  const parsed = AnnotationJson.safeParse(annotation);
  if (!parsed.success) return null;
  return { source, annotation_json: parsed.data, score: annotationQualityScore(parsed.data) };
}

/** A section while it is being filled, before names, slugs and orders are final. */
export interface OpenSection {
  name: string | null;
  level: number;
  parts: string[];
  page_start: number | null;
  page_end: number | null;
  tables: Array<{ rows: string[][]; markdown: string; page_number: number }>;
  figures: Array<{ imageId: string; page: number }>;
}

/** Text with its image references taken out (they become figures), spacing tidied. Pure. */
function withoutImageRefs(text: string): string {
  return text
    .replace(/^[ \t]*!\[[^\]]*\]\([^)\s]+\)[ \t]*/gm, '')
    .replace(/[ \t]*!\[[^\]]*\]\([^)\s]+\)[ \t]*/g, ' ')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .trim();
}

/** A page's markdown as CommonMark + GFM blocks (a `#` inside a code fence is no heading). */
function parsePage(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** The source text of a node, as the engine wrote it. */
function sourceOf(markdown: string, node: Nodes): string {
  return markdown.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0);
}

/** The images a block refers to, in order (`![img-0.jpeg](img-0.jpeg)`). */
function imageUrls(node: Nodes): string[] {
  if (node.type === 'image') return [node.url];
  return 'children' in node ? node.children.flatMap((c) => imageUrls(c)) : [];
}

/** A GFM table's cells, as written (escaped pipes unescaped), rows padded to one width. */
function tableRows(markdown: string, table: Table): string[][] {
  const rows = table.children.map((row) =>
    row.children.map((cell) =>
      sourceOf(markdown, cell)
        .trim()
        .replace(/^\|/, '')
        .replace(/(?<!\\)\|$/, '')
        .replace(/\\\|/g, '|')
        .trim(),
    ),
  );
  const width = Math.max(...rows.map((r) => r.length));
  return rows.map((r) => [...r, ...Array<string>(width - r.length).fill('')]);
}

const startLine = (node: RootContent) => node.position?.start.line ?? 0;
const endLine = (node: RootContent) => node.position?.end.line ?? 0;

/**
 * Splits the engine's pages into sections at markdown headings, keeping GFM
 * tables (as tables and in the section's markdown), page ranges, and where
 * each image reference (`![img-0.jpeg](img-0.jpeg)`) sits. An image the
 * markdown never mentions goes at the end of its page. Blocks with no blank line
 * between them (a paragraph and the list under it) stay one part. Pure.
 */
export function sectionsFromPages(pages: readonly OcrDocumentPage[]): OpenSection[] {
  const open = (name: string | null, level: number): OpenSection => ({
    name,
    level,
    parts: [],
    page_start: null,
    page_end: null,
    tables: [],
    figures: [],
  });
  const sections: OpenSection[] = [open(null, 0)];
  const current = (): OpenSection => sections[sections.length - 1]!;
  const touch = (page: number) => {
    const s = current();
    s.page_start ??= page;
    s.page_end = page;
  };

  for (const page of [...pages].sort((a, b) => a.index - b.index)) {
    const pageNo = page.index + 1;
    const markdown = page.markdown.replace(/\r\n?/g, '\n');
    const known = new Set(page.images.map((i) => i.id));
    const placed = new Set<string>();
    // Consecutive text blocks (no blank line between them) gathered into one part.
    let text: string[] = [];
    let lastLine = -1;
    const flushText = () => {
      if (text.length === 0) return;
      const rest = withoutImageRefs(text.join('\n'));
      if (rest !== '') {
        current().parts.push(rest);
        touch(pageNo);
      }
      text = [];
    };
    for (const block of parsePage(markdown).children) {
      if (startLine(block) > lastLine + 1) flushText();
      lastLine = endLine(block);
      if (block.type === 'heading') {
        flushText();
        const name = toString(block).trim();
        if (name === '') continue;
        sections.push(open(name, block.depth));
        touch(pageNo);
        continue;
      }
      if (block.type === 'table') {
        flushText();
        const source = sourceOf(markdown, block)
          .split('\n')
          .map((l) => l.trim())
          .join('\n');
        current().tables.push({
          rows: tableRows(markdown, block),
          markdown: source,
          page_number: pageNo,
        });
        current().parts.push(source);
        touch(pageNo);
        // A table ends its part: what follows starts a new one.
        lastLine = -1;
        continue;
      }
      for (const id of imageUrls(block)) {
        if (known.has(id) && !placed.has(id)) {
          placed.add(id);
          current().figures.push({ imageId: id, page: pageNo });
          touch(pageNo);
        }
      }
      text.push(sourceOf(markdown, block));
    }
    flushText();
    for (const image of page.images) {
      if (!placed.has(image.id)) {
        current().figures.push({ imageId: image.id, page: pageNo });
        touch(pageNo);
      }
    }
  }
  return sections;
}

const UPLOAD_MIME: Record<Exclude<OcrDocumentKind, 'pdf'>, FigureDraft['mime_type']> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/**
 * Checks an image upload before it is sent anywhere: readable header, not a
 * pixel bomb. (A PDF goes as it is; the engine refuses what it cannot read.)
 */
export async function precheckOcrUpload(kind: OcrDocumentKind, bytes: Buffer): Promise<void> {
  if (kind === 'pdf') return;
  const info = await probeImage(bytes);
  if (!info)
    throw new DocumentError(
      'corrupt',
      `the ${kind.toUpperCase()} image is damaged or cannot be read`,
    );
  if (info.width * info.height > MAX_IMAGE_PIXELS)
    throw new DocumentError(
      'too_large',
      `the image is ${info.width}x${info.height} pixels, more than the ${MAX_IMAGE_PIXELS / 1_000_000} megapixels allowed`,
    );
}

/**
 * A whole-document OCR result (Mistral) as a parsed document: sections from
 * the markdown headings of every page, GFM tables, and figures from the images
 * the engine extracted (too small or unreadable images are dropped, like the
 * local parser does), each with the engine's annotation when it is rich. For
 * an image upload the upload itself is the one figure, annotated with the
 * first rich annotation the engine made of it.
 */
export async function documentFromOcr(
  kind: OcrDocumentKind,
  bytes: Buffer,
  result: OcrDocumentResult,
): Promise<OcrDocument> {
  const opened = sectionsFromPages(result.pages);
  const images = new Map(result.pages.flatMap((p) => p.images.map((i) => [i.id, i] as const)));
  const slugs = new SlugMaker();
  const sections: SectionDraft[] = [];
  const tables: TableDraft[] = [];
  const figures: FigureDraft[] = [];
  const annotations = new Map<number, OcrFigureAnnotation>();

  let uploadFigure: Omit<FigureDraft, 'section_order' | 'order'> | null = null;
  let uploadAnnotation: OcrFigureAnnotation | null = null;
  if (kind !== 'pdf') {
    const info = await probeImage(bytes);
    const text = result.pages
      .map((p) => withoutImageRefs(p.markdown))
      .filter(Boolean)
      .join('\n\n');
    uploadFigure = {
      bytes,
      mime_type: UPLOAD_MIME[kind],
      width: info?.width ?? 0,
      height: info?.height ?? 0,
      page_number: null,
      alt: null,
      ocr_text: text.slice(0, 4000) || null,
    };
    for (const image of images.values()) {
      uploadAnnotation ??= richAnnotation(image.annotation, result.provider);
    }
  }

  for (const s of opened) {
    const markdown = s.parts.join('\n\n').trim();
    const placedHere = kind === 'pdf' ? s.figures : [];
    const carriesUpload = uploadFigure !== null && (s.name !== null || markdown !== '');
    if (
      s.name === null &&
      markdown === '' &&
      s.tables.length === 0 &&
      placedHere.length === 0 &&
      !carriesUpload
    )
      continue;
    const name = s.name ?? 'Introduction';
    const order = sections.length;
    sections.push({
      name,
      slug: slugs.slug(name),
      level: s.name === null ? 0 : s.level,
      order,
      markdown,
      page_start: kind === 'pdf' ? s.page_start : null,
      page_end: kind === 'pdf' ? s.page_end : null,
    });
    for (const t of s.tables) {
      tables.push({
        section_order: order,
        order: tables.length,
        page_number: kind === 'pdf' ? t.page_number : null,
        markdown: t.markdown,
        rows: t.rows,
      });
    }
    if (uploadFigure && carriesUpload) {
      if (uploadAnnotation) annotations.set(0, uploadAnnotation);
      figures.push({ ...uploadFigure, section_order: order, order: 0 });
      uploadFigure = null;
    }
    for (const placed of placedHere) {
      const image = images.get(placed.imageId);
      const usable = image?.bytes ? await figureImage(image.bytes) : null;
      if (!image || !usable) continue;
      const figureOrder = figures.length;
      const rich = result.annotated ? richAnnotation(image.annotation, result.provider) : null;
      if (rich) annotations.set(figureOrder, rich);
      figures.push({
        section_order: order,
        order: figureOrder,
        page_number: placed.page,
        bytes: usable.bytes,
        mime_type: usable.mime_type,
        width: usable.width,
        height: usable.height,
        alt: null,
        ocr_text: null,
      });
    }
  }
  if (uploadFigure) {
    // An image with no text at all: one untitled section holds it.
    sections.push({
      name: 'Introduction',
      slug: slugs.slug('Introduction'),
      level: 0,
      order: sections.length,
      markdown: '',
      page_start: null,
      page_end: null,
    });
    if (uploadAnnotation) annotations.set(0, uploadAnnotation);
    figures.push({ ...uploadFigure, section_order: sections.length - 1, order: 0 });
  }

  const pageNumbers = [...new Set(result.pages.map((p) => p.index + 1))].sort((a, b) => a - b);
  return {
    doc: {
      kind,
      title: null,
      page_count: kind === 'pdf' ? pageNumbers.length : 1,
      sections,
      tables,
      figures,
      ocr_pages: kind === 'pdf' ? pageNumbers : [1],
    },
    annotations,
  };
}
