/**
 * Photos kept as figures (issue 11's target "every photo kept, no logo or badge kept as a
 * figure"), judged from poppler's `pdfimages -list`, which reads a PDF's images apart from the
 * pdf.js reading the system parses with. A picture is one image object. In the issue's words: a
 * picture drawn on {@link REPEATED_PAGES} pages or more is repeated (a logo, a badge), and one
 * drawn smaller than {@link MIN_DRAWN_PT} points on a side, or of fewer than {@link MIN_PIXELS}
 * pixels a side, is too small to be a photo. A picture drawn over most of a page that has no text
 * layer is the scan of that page. Every other picture counts as a photo. The same photo stored
 * as two objects counts twice, and the system keeps it once (it knows an image by its pixels):
 * such a photo shows among those not kept.
 */

/** Pages a picture is drawn on, at least, to be furniture rather than a photo. */
export const REPEATED_PAGES = 3;
/** The drawn size (points, 72 an inch) below which a picture is a badge or an icon. */
export const MIN_DRAWN_PT = 54;
/** The pixel size below which a picture is an icon or a bullet. */
export const MIN_PIXELS = 48;
/** The share of a page a scan of it covers, at least. */
export const PAGE_SCAN_SHARE = 0.7;

/** One draw of an image, as a row of `pdfimages -list`. */
export interface ListedImage {
  page: number;
  width: number;
  height: number;
  /** The image object ("12 0"), or the page and number of an inline image. */
  object: string;
  /** Drawn size in points, from the listed resolution. */
  drawnWidth: number;
  drawnHeight: number;
}

/** The image rows (not soft masks or stencils) of `pdfimages -list` output. Pure. */
export function parseImageList(text: string): ListedImage[] {
  const images: ListedImage[] = [];
  for (const line of text.split('\n')) {
    const c = line.trim().split(/\s+/);
    if (c.length < 15 || c[2] !== 'image' || !/^\d+$/.test(c[0] ?? '')) continue;
    const [page, num, , w, h] = c.map(Number) as [number, number, number, number, number];
    const xPpi = Number(c[12]);
    const yPpi = Number(c[13]);
    const inline = c[10] === '0' && c[11] === '0';
    images.push({
      page,
      width: w,
      height: h,
      object: inline ? `inline ${page}/${num}` : `${c[10]} ${c[11]}`,
      drawnWidth: xPpi > 0 ? (w * 72) / xPpi : 0,
      drawnHeight: yPpi > 0 ? (h * 72) / yPpi : 0,
    });
  }
  return images;
}

/** Each page's area in square points (index 0 = page 1), from `pdfinfo -f 1 -l N`. Pure. */
export function parsePageAreas(text: string): number[] {
  const areas: number[] = [];
  for (const m of text.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm))
    areas[Number(m[1]) - 1] = Number(m[2]) * Number(m[3]);
  return areas;
}

/** A figure the system kept: its page and pixel size. */
export interface KeptFigure {
  page: number | null;
  width: number;
  height: number;
}

export interface PhotoCount {
  photos: number;
  /** Photos with a figure of the same pixel size (or shape) on a page it is drawn on. */
  kept: number;
  repeated: number;
  /** Pictures that are the scan of a page without a text layer. */
  pageScans: number;
  /** Repeated pictures with a figure of the same pixel size on a page it is drawn on. */
  repeatedKept: number;
  /**
   * Figures that are neither a photo nor a repeated picture: a small one, one pdf.js decodes at
   * another size, a photo that fills a page without text (counted as the page's scan).
   */
  otherFigures: number;
  /** Photos with no figure: first page and pixel size, for reading the page. */
  notKept: { page: number; width: number; height: number }[];
}

interface Picture {
  pages: Set<number>;
  width: number;
  height: number;
  drawn: number;
  /** Drawn over most of a page without text, wherever it is drawn. */
  scan: boolean;
}

/**
 * Counts the photos of one PDF and the figures kept of them. `pageAreas` (square points, index 0
 * = page 1) and `textless` (1-based pages with no text layer) tell the scans of pages. Pure.
 */
export function countPhotos(
  images: readonly ListedImage[],
  figures: readonly KeptFigure[],
  pageAreas: readonly number[] = [],
  textless: ReadonlySet<number> = new Set(),
): PhotoCount {
  const pictures = new Map<string, Picture>();
  for (const img of images) {
    const p = pictures.get(img.object) ?? {
      pages: new Set(),
      width: img.width,
      height: img.height,
      drawn: 0,
      scan: true,
    };
    p.pages.add(img.page);
    p.drawn = Math.max(p.drawn, Math.min(img.drawnWidth, img.drawnHeight));
    const area = pageAreas[img.page - 1] ?? 0;
    p.scan &&=
      textless.has(img.page) &&
      area > 0 &&
      img.drawnWidth * img.drawnHeight >= PAGE_SCAN_SHARE * area;
    pictures.set(img.object, p);
  }
  const all = [...pictures.values()];
  const repeated = all.filter((p) => p.pages.size >= REPEATED_PAGES);
  const pageScans = all.filter((p) => p.pages.size < REPEATED_PAGES && p.scan);
  const photos = all.filter(
    (p) =>
      p.pages.size < REPEATED_PAGES &&
      !p.scan &&
      p.drawn >= MIN_DRAWN_PT &&
      Math.min(p.width, p.height) >= MIN_PIXELS,
  );
  const left = figures.map((f) => ({ ...f, used: false }));
  const found = new Set<Picture>();
  // A figure of the same pixel size (or, `sameShape`, of the same shape) on the picture's first
  // page, or (`anyPage`) on any page it is drawn on.
  const take = (p: Picture, anyPage: boolean, sameShape: boolean): void => {
    if (found.has(p)) return;
    const first = Math.min(...p.pages);
    const f = left.find(
      (x) =>
        !x.used &&
        x.page !== null &&
        (anyPage ? p.pages.has(x.page) : x.page === first) &&
        ((x.width === p.width && x.height === p.height) ||
          (sameShape && Math.abs(x.width / x.height - p.width / p.height) < 0.02)),
    );
    if (!f) return;
    f.used = true;
    found.add(p);
  };
  // The system keeps an image where it is first drawn: photos of the same size drawn again on a
  // later page must not take each other's figures. Then any page; then, for a photo still without
  // one, the same shape (pdf.js decodes an image with a larger mask at the mask's size).
  for (const p of photos) take(p, false, false);
  for (const p of repeated) take(p, true, false);
  for (const p of photos) take(p, true, false);
  for (const p of photos) take(p, true, true);
  const notKept = photos.filter((p) => !found.has(p));
  const repeatedKept = repeated.filter((p) => found.has(p)).length;
  return {
    photos: photos.length,
    kept: photos.length - notKept.length,
    repeated: repeated.length,
    pageScans: pageScans.length,
    repeatedKept,
    otherFigures: left.filter((f) => !f.used).length,
    notKept: notKept.map((p) => ({ page: Math.min(...p.pages), width: p.width, height: p.height })),
  };
}
