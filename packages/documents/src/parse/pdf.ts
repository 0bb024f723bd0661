import { DocumentError, throwIfAborted } from '../errors.js';
import { judgeTextLayer } from './ocrText.js';
import { assembleDocument } from './sections.js';
import type { RawFigure } from './sections.js';
import type { ParsedDocument, ParseOptions } from './types.js';
import { PAGE_SCAN_COVERAGE, dropRepeatedImages, pageFigures } from './pdf/figures.js';
import type { PlacedFigure } from './pdf/figures.js';
import { outlineTargets } from './pdf/headings.js';
import { analysePages } from './pdf/layout.js';
import type { PageText } from './pdf/layout.js';
import type { RawTextItem } from './pdf/lines.js';
import {
  DEFAULT_MAX_PAGES,
  abortable,
  cleanPdfTitle,
  destroyQuietly,
  loadError,
  loadPdfjs,
  openPdf,
  reasonOf,
} from './pdf/load.js';
import type { Pdfjs, PdfDocument, PdfPage } from './pdf/load.js';

export { analysePages } from './pdf/layout.js';
export type { PageText } from './pdf/layout.js';
export type { OutlineTarget } from './pdf/headings.js';
export type { PlacedFigure } from './pdf/figures.js';
export { PAGE_SCAN_COVERAGE } from './pdf/figures.js';
export type { RawTextItem } from './pdf/lines.js';
export { DEFAULT_MAX_PAGES, cleanPdfTitle } from './pdf/load.js';

async function pageText(
  pdfjs: Pdfjs,
  doc: PdfDocument,
  n: number,
  images: { wanted: boolean; seen: Map<string, RawFigure> },
): Promise<PageText & { drawsImage: boolean; smallDraws: string[] }> {
  let page: PdfPage;
  try {
    page = await doc.getPage(n);
  } catch (err) {
    throw new DocumentError(
      'corrupt',
      `the PDF is damaged: page ${n} cannot be read (${reasonOf(err)})`,
      { cause: err },
    );
  }
  try {
    const content = await page.getTextContent({
      includeMarkedContent: false,
      disableNormalization: false,
    });
    const [x0 = 0, y0 = 0, x1 = 612, y1 = 842] = page.view;
    let figures: PlacedFigure[] = [];
    let drawsImage = false;
    let smallDraws: string[] = [];
    if (images.wanted) {
      try {
        ({ figures, drawsImage, smallDraws } = await pageFigures(pdfjs, page, n, images.seen));
      } catch {
        // A page whose drawing cannot be read still has its text; it just yields no figures.
      }
    }
    return {
      items: content.items as RawTextItem[],
      height: Math.abs(y1 - y0),
      width: Math.abs(x1 - x0),
      figures,
      drawsImage,
      smallDraws,
    };
  } catch (err) {
    throw new DocumentError(
      'corrupt',
      `the PDF is damaged: the text of page ${n} cannot be read (${reasonOf(err)})`,
      { cause: err },
    );
  } finally {
    page.cleanup();
  }
}

/**
 * Image XObjects are stream dictionaries, never inside object streams, so `/Subtype /Image` shows
 * in the raw file; without one, the operator lists (a second pass over every page) are skipped.
 * Inline images hide inside compressed content streams, and are small by nature: not looked for.
 */
function mayHaveImages(bytes: Buffer): boolean {
  return /\/Subtype\s*\/Image\b/.test(bytes.toString('latin1'));
}

function itemsText(items: RawTextItem[]): string {
  return items.map((i) => (typeof i.str === 'string' ? i.str : '')).join(' ');
}

export async function parsePdf(bytes: Buffer, opts: ParseOptions = {}): Promise<ParsedDocument> {
  const { signal } = opts;
  const maxPages = opts.maxPages ?? DEFAULT_MAX_PAGES;
  throwIfAborted(signal);
  const { pdfjs, assets } = await loadPdfjs();
  const task = openPdf(pdfjs, assets, bytes);
  try {
    let doc: PdfDocument;
    try {
      doc = await abortable(task.promise, signal);
    } catch (err) {
      throw loadError(err);
    }
    const pageCount = doc.numPages;
    if (pageCount > maxPages) {
      throw new DocumentError(
        'too_large',
        `the PDF has ${pageCount} pages, more than the ${maxPages} allowed`,
      );
    }
    let title: string | null = null;
    try {
      const meta = await abortable(doc.getMetadata(), signal);
      const info = meta.info as { Title?: unknown } | undefined;
      title = typeof info?.Title === 'string' ? cleanPdfTitle(info.Title) : null;
    } catch (err) {
      if (err instanceof DocumentError) throw err;
    }
    const images = { wanted: mayHaveImages(bytes), seen: new Map<string, RawFigure>() };
    const pages: (PageText & { drawsImage: boolean; smallDraws: string[] })[] = [];
    for (let n = 1; n <= pageCount; n++) {
      throwIfAborted(signal);
      pages.push(await abortable(pageText(pdfjs, doc, n, images), signal));
    }
    dropRepeatedImages(
      pages.map((p) => p.figures ?? []),
      pages.map((p) => p.smallDraws),
    ).forEach((figures, i) => {
      (pages[i] as PageText).figures = figures;
    });
    const needOcr = pages.flatMap((p, i) =>
      judgeTextLayer(itemsText(p.items), p.drawsImage).usable ? [] : [i],
    );
    const ocrPages: number[] = [];
    if (needOcr.length > 0 && opts.ocr) {
      const result = await abortable(
        opts.ocr({ kind: 'pdf', bytes, pages: needOcr, signal }),
        signal,
      );
      for (const read of result.pages) {
        const page = pages[read.index];
        if (!page || !needOcr.includes(read.index)) continue;
        page.ocrMarkdown = read.markdown;
        page.items = [];
        page.figures = (page.figures ?? []).filter(
          (f) => f.coverage < PAGE_SCAN_COVERAGE || f.pictorial === true,
        );
        ocrPages.push(read.index + 1);
      }
    } else if (needOcr.length === pageCount) {
      throw new DocumentError(
        'needs_ocr',
        'the PDF has no usable text layer and no OCR engine is configured to read its pages',
      );
    }
    const targets = await abortable(outlineTargets(doc), signal);
    throwIfAborted(signal);
    const parsed = assembleDocument(
      'pdf',
      title,
      pageCount,
      analysePages(pages, targets),
      ocrPages.sort((a, b) => a - b),
    );
    if (parsed.sections.length === 0 && parsed.figures.length === 0) {
      throw new DocumentError('needs_ocr', 'no text or images could be read from the PDF');
    }
    return parsed;
  } finally {
    await destroyQuietly(task);
  }
}

/** Benchmark baseline: pdf.js getTextContent over every page, nothing else; returns the characters extracted. */
export async function bareExtractPdf(bytes: Buffer): Promise<number> {
  const { pdfjs, assets } = await loadPdfjs();
  const task = openPdf(pdfjs, assets, bytes);
  try {
    const doc = await task.promise;
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items) if ('str' in item) chars += item.str.length;
      page.cleanup();
    }
    return chars;
  } finally {
    await destroyQuietly(task);
  }
}
