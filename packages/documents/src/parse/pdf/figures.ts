import { createHash } from 'node:crypto';
import { isFigureSized, rawToPng } from '../../images/image.js';
import type { RawFigure } from '../sections.js';
import type { Line } from './lines.js';
import type { Pdfjs, PdfPage } from './load.js';

/** A figure drawn on a page, with the height of its top edge (PDF units, larger = higher). */
export interface PlacedFigure {
  top: number;
  /** Share of the page's area the image is drawn over (1 = the whole page). */
  coverage: number;
  figure: RawFigure;
}

/**
 * On a page read by OCR, an image drawn over at least this share of the page is the scan of the
 * page itself, not a figure on it.
 */
export const PAGE_SCAN_COVERAGE = 0.7;

/** Where a figure goes in the line list: before the first line below its top on its page. */
export function figureIndex(lines: Line[], page: number, top: number): number {
  const i = lines.findIndex((l) => l.page > page || (l.page === page && l.y < top));
  return i < 0 ? lines.length : i;
}

/** pdf.js ImageKind: how the pixels of a decoded image are laid out. */
export const IMAGE_KIND = { GRAYSCALE_1BPP: 1, RGB_24BPP: 2, RGBA_32BPP: 3 } as const;

export interface DecodedImage {
  width?: unknown;
  height?: unknown;
  kind?: unknown;
  data?: unknown;
}

/** A decoded pdf.js image as PNG bytes, or null when its layout is not one we know. */
export async function decodedToPng(img: DecodedImage): Promise<Buffer | null> {
  const { width, height, kind, data } = img;
  if (
    typeof width !== 'number' ||
    typeof height !== 'number' ||
    !(data instanceof Uint8Array || data instanceof Uint8ClampedArray)
  )
    return null;
  if (kind === IMAGE_KIND.RGB_24BPP) return rawToPng(data, width, height, 3);
  if (kind === IMAGE_KIND.RGBA_32BPP) return rawToPng(data, width, height, 4);
  if (kind === IMAGE_KIND.GRAYSCALE_1BPP) {
    // One bit per pixel, rows padded to whole bytes, 1 = white.
    const rowBytes = (width + 7) >> 3;
    const gray = new Uint8Array(width * height);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        gray[y * width + x] = (data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
    return rawToPng(gray, width, height, 1);
  }
  return null;
}

export function objectOf(page: PdfPage, id: string): Promise<DecodedImage | null> {
  const objs = id.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => {
    try {
      objs.get(id, (value: unknown) => resolve((value as DecodedImage | null) ?? null));
    } catch {
      resolve(null);
    }
  });
}

export type Matrix = [number, number, number, number, number, number];

export function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

/**
 * The figure-sized images a page draws (pdf.js decodes them; we keep them as PNG), each with the
 * top of the box it is drawn in. An image drawn twice in the document is one figure (`seen`).
 */
export async function pageFigures(
  pdfjs: Pdfjs,
  page: PdfPage,
  pageNumber: number,
  seen: Set<string>,
): Promise<{ figures: PlacedFigure[]; drawsImage: boolean }> {
  const OPS = pdfjs.OPS;
  const [x0 = 0, y0 = 0, x1 = 595, y1 = 842] = page.view;
  const pageArea = Math.max(1, Math.abs((x1 - x0) * (y1 - y0)));
  const list = await page.getOperatorList();
  const figures: PlacedFigure[] = [];
  let drawsImage = false;
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform && Array.isArray(args) && args.length === 6)
      ctm = multiply(ctm, args as Matrix);
    else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject) {
      drawsImage = true;
      const first = args?.[0];
      const img =
        typeof first === 'string'
          ? await objectOf(page, first)
          : ((first as DecodedImage | undefined) ?? null);
      if (!img || typeof img.width !== 'number' || typeof img.height !== 'number') continue;
      if (!isFigureSized(img.width, img.height)) continue;
      const png = await decodedToPng(img).catch(() => null);
      if (!png) continue;
      const key = createHash('sha256').update(png).digest('hex');
      if (seen.has(key)) continue;
      seen.add(key);
      // The image fills the unit square under the CTM; its top edge is the larger y.
      const top = Math.max(ctm[5], ctm[5] + ctm[3], ctm[5] + ctm[1], ctm[5] + ctm[1] + ctm[3]);
      figures.push({
        top,
        coverage: Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]) / pageArea,
        figure: {
          bytes: png,
          mime_type: 'image/png',
          width: img.width,
          height: img.height,
          page_number: pageNumber,
          alt: null,
          ocr_text: null,
        },
      });
    }
  }
  return { figures, drawsImage };
}
