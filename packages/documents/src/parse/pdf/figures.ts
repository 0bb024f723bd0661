import { createHash } from 'node:crypto';
import { isFigureSized, rawToPng } from '../../images/image.js';
import type { RawFigure } from '../sections.js';
import type { Line } from './lines.js';
import type { Pdfjs, PdfPage } from './load.js';

/** A figure drawn on a page, with the height of its top edge (PDF units, larger = higher). */
export interface PlacedFigure {
  top: number;
  /** The box the image is drawn in (PDF units); absent for figures placed by other means. */
  box?: { left: number; right: number; bottom: number; top: number };
  /** Identity of the pixels: the same image drawn on several pages has one key. */
  key?: string;
  /** Share of the page's area the image is drawn over (1 = the whole page). */
  coverage: number;
  /**
   * For an image drawn over {@link PAGE_SCAN_COVERAGE} of its page or more: whether its pixels
   * look like a photograph or a map (see {@link photographic}), not a scanned sheet of paper.
   */
  pictorial?: boolean;
  figure: RawFigure;
}

/**
 * On a page read by OCR, an image drawn over at least this share of the page is the scan of the
 * page itself, not a figure on it, unless it is pictorial (a map or a photo that fills a page
 * under a one-line title, whose thin text layer sent the page to OCR).
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

/** A thumbnail needs both sides at least this many pixels to be kept as a photo. */
export const MIN_THUMBNAIL_SIDE = 48;
/** ...and no colour may fill more than this share of it (a logo's flat ground does). */
const MAX_FLAT_SHARE = 0.35;
/**
 * An image that fills a page is a map or a photo, not the scan of a sheet, when no colour fills
 * more than this share of it: a scanned sheet's paper covers most of it, a map's ground less.
 */
const MAX_PAPER_SHARE = 0.6;

/** The colour of the pixel at byte `i`, cut to 4 bits a channel (red, green, blue). */
function colourKey(data: Uint8Array | Uint8ClampedArray, i: number): number {
  return ((data[i]! >> 4) << 8) | ((data[i + 1]! >> 4) << 4) | (data[i + 2]! >> 4);
}

/**
 * Whether decoded pixels look like a photograph: many colours, none of them (to 4 bits a
 * channel) covering a large share of the image, as the flat ground of a logo, badge or icon
 * does. Colour images only; a grey or one-bit thumbnail is not taken for a photo.
 */
export function photographic(
  kind: unknown,
  data: Uint8Array | Uint8ClampedArray,
  maxFlatShare = MAX_FLAT_SHARE,
): boolean {
  const step = kind === IMAGE_KIND.RGB_24BPP ? 3 : kind === IMAGE_KIND.RGBA_32BPP ? 4 : 0;
  if (step === 0 || data.length < step * 64) return false;
  const counts = new Map<number, number>();
  let pixels = 0;
  for (let i = 0; i + 2 < data.length; i += step) {
    const key = colourKey(data, i);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    pixels++;
  }
  const top = Math.max(...counts.values());
  return counts.size >= 24 && top / pixels <= maxFlatShare;
}

/**
 * Whether a colour image is one flat colour (to 4 bits a channel) over all its pixels: a filled
 * box or a shape cut out by its mask (a callout's coloured panel, an arrow), not a picture.
 */
export function solidFill(kind: unknown, data: Uint8Array | Uint8ClampedArray): boolean {
  const step = kind === IMAGE_KIND.RGB_24BPP ? 3 : kind === IMAGE_KIND.RGBA_32BPP ? 4 : 0;
  if (step === 0 || data.length < step) return false;
  const first = colourKey(data, 0);
  for (let i = step; i + 2 < data.length; i += step) if (colourKey(data, i) !== first) return false;
  return true;
}

/**
 * An image drawn smaller than this (PDF units, 72 = one inch) on either side is a logo, badge,
 * icon or bullet, not a photo, whatever its pixel size.
 */
export const MIN_DRAWN_SIDE = 54;

/**
 * The figure-sized images a page draws (pdf.js decodes them whatever their encoding: JPEG,
 * JPEG 2000, CCITT, JBIG2, Flate, inline images; we keep them as PNG), each with the box it is
 * drawn in. An image drawn again (on this page or an earlier one) is listed again with the same
 * key and no new PNG (`seen` keeps the first PNG per key); {@link dropRepeatedImages} then keeps one.
 */
export async function pageFigures(
  pdfjs: Pdfjs,
  page: PdfPage,
  pageNumber: number,
  seen: Map<string, RawFigure>,
): Promise<{ figures: PlacedFigure[]; drawsImage: boolean; smallDraws: string[] }> {
  const OPS = pdfjs.OPS;
  const [x0 = 0, y0 = 0, x1 = 595, y1 = 842] = page.view;
  const pageArea = Math.max(1, Math.abs((x1 - x0) * (y1 - y0)));
  const list = await page.getOperatorList();
  const figures: PlacedFigure[] = [];
  // Keys of images that could be figures but are drawn too small here: a letterhead logo drawn
  // large on the cover and small on every other page is still drawn on many pages.
  const smallDraws: string[] = [];
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
      // A photo's thumbnail ("Photo 3" under a 60-pixel picture of the wall) is kept though its
      // pixels are few; a logo or icon of as few pixels is not (see photographic).
      const sized = isFigureSized(img.width, img.height);
      if (!sized && Math.min(img.width, img.height) < MIN_THUMBNAIL_SIDE) continue;
      // The image fills the unit square under the CTM.
      const xs = [ctm[4], ctm[4] + ctm[0], ctm[4] + ctm[2], ctm[4] + ctm[0] + ctm[2]];
      const ys = [ctm[5], ctm[5] + ctm[1], ctm[5] + ctm[3], ctm[5] + ctm[1] + ctm[3]];
      const box = {
        left: Math.min(...xs),
        right: Math.max(...xs),
        bottom: Math.min(...ys),
        top: Math.max(...ys),
      };
      const data = img.data;
      if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray)) continue;
      if (!sized && !photographic(img.kind, data)) continue;
      if (solidFill(img.kind, data)) continue;
      const key = createHash('sha256')
        .update(`${img.width}x${img.height}:${String(img.kind)}:`)
        .update(data)
        .digest('hex');
      if (Math.min(box.right - box.left, box.top - box.bottom) < MIN_DRAWN_SIDE) {
        smallDraws.push(key);
        continue;
      }
      let figure = seen.get(key);
      if (!figure) {
        const png = await decodedToPng(img).catch(() => null);
        if (!png) continue;
        figure = {
          bytes: png,
          mime_type: 'image/png',
          width: img.width,
          height: img.height,
          page_number: pageNumber,
          alt: null,
          ocr_text: null,
        };
        seen.set(key, figure);
      }
      const coverage = Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]) / pageArea;
      figures.push({
        top: box.top,
        box,
        key,
        coverage,
        ...(coverage >= PAGE_SCAN_COVERAGE
          ? { pictorial: photographic(img.kind, data, MAX_PAPER_SHARE) }
          : {}),
        figure: { ...figure, page_number: pageNumber },
      });
    }
  }
  return { figures, drawsImage, smallDraws };
}

/**
 * An image drawn on at least this many pages is page furniture (a letterhead logo, a badge, a
 * watermark), not a photo of the property.
 */
export const REPEATED_IMAGE_PAGES = 3;

/**
 * Keeps each image once, where it is first drawn, and drops images drawn on
 * {@link REPEATED_IMAGE_PAGES} or more pages, counting the pages where it is drawn too small to
 * be a figure (`smallDraws`, keys per page) as well.
 */
export function dropRepeatedImages(
  pages: PlacedFigure[][],
  smallDraws: string[][] = [],
): PlacedFigure[][] {
  const pagesOf = new Map<string, Set<number>>();
  const sight = (key: string, page: number): void => {
    const set = pagesOf.get(key) ?? new Set<number>();
    set.add(page);
    pagesOf.set(key, set);
  };
  pages.forEach((figures, i) => {
    for (const f of figures) if (f.key !== undefined) sight(f.key, i);
  });
  smallDraws.forEach((keys, i) => {
    for (const key of keys) sight(key, i);
  });
  const kept = new Set<string>();
  return pages.map((figures) =>
    figures.filter((f) => {
      if (f.key === undefined) return true;
      if ((pagesOf.get(f.key)?.size ?? 0) >= REPEATED_IMAGE_PAGES || kept.has(f.key)) return false;
      kept.add(f.key);
      return true;
    }),
  );
}

/** A caption that names itself as one: "Photo 3: cracked brick veneer", "Figure 2 - Attic". */
const CAPTION = /^(?:photo|photograph|figure|fig\.|image|picture|pic\.?)\s*#?\s*\d+[a-z]?\b/i;
const MAX_CAPTION_CHARS = 160;

/**
 * Ties each figure to its caption: the text just below the image box (within two lines), or
 * just above it, that lies under/over the image horizontally. A line that calls itself a caption
 * ("Photo 3: ...") wins over plain text; text far away or long paragraphs are not captions. The
 * caption also stays in the text, where it is searched.
 */
export function attachCaptions(figures: PlacedFigure[], lines: Line[], page: number): void {
  const onPage = lines.filter((l) => l.page === page);
  for (const f of figures) {
    const box = f.box;
    if (!box) continue;
    const candidates: { text: string; distance: number; named: boolean }[] = [];
    for (const l of onPage) {
      const below = box.bottom - (l.y + l.size);
      const above = l.y - box.top;
      const distance = below >= -l.size * 0.5 ? below : above >= -l.size * 0.5 ? above : -1;
      if (distance < 0 || distance > l.size * 2.5) continue;
      const text = l.segments
        .filter((s) => s.end > box.left + 2 && s.x < box.right - 2)
        .map((s) => s.text)
        .join(' ')
        .trim();
      if (text === '' || text.length > MAX_CAPTION_CHARS) continue;
      candidates.push({
        text,
        distance: below >= -l.size * 0.5 ? distance : distance + 1,
        named: CAPTION.test(text),
      });
    }
    candidates.sort((a, b) => Number(b.named) - Number(a.named) || a.distance - b.distance);
    const best = candidates[0];
    if (best) f.figure = { ...f.figure, alt: best.text };
  }
}
