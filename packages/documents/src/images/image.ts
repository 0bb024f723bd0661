import sharp from 'sharp';

// libvips keeps decoded images in a cache shared by the process; the parser sees each image
// once, so the cache only costs memory.
sharp.cache(false);

/** Images larger than this (width x height) are refused undecoded: 40 megapixels is a 7300x5500 photo. */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** An image needs both sides at least this long to be a figure (icons, bullets and rules are not). */
export const MIN_FIGURE_SIDE = 64;
/** ...and at least this many pixels (128x128 worth): spacer lines and thin rules are not figures. */
export const MIN_FIGURE_PIXELS = 128 * 128;
/** Thumbnails fit in a square of this many pixels. */
export const THUMBNAIL_SIZE = 512;

export type FigureMime = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

/** Formats kept as they are; any other readable raster format is re-encoded as PNG. */
const KEPT: Record<string, FigureMime> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/**
 * Whether an image of this size is a figure: both sides at least {@link MIN_FIGURE_SIDE} and at
 * least {@link MIN_FIGURE_PIXELS} pixels. Icons, bullets, spacer GIFs and rules are not.
 */
export function isFigureSized(width: number, height: number): boolean {
  return Math.min(width, height) >= MIN_FIGURE_SIDE && width * height >= MIN_FIGURE_PIXELS;
}

/** Whether decoding an image of this size is allowed (see {@link MAX_IMAGE_PIXELS}). */
export function withinPixelLimit(width: number, height: number): boolean {
  return width > 0 && height > 0 && width * height <= MAX_IMAGE_PIXELS;
}

export interface ImageInfo {
  format: string;
  width: number;
  height: number;
}

/** The image's format and size from its header alone (nothing is decoded); null when unreadable. */
export async function probeImage(bytes: Buffer): Promise<ImageInfo | null> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: false, failOn: 'none' }).metadata();
    if (!meta.format || !meta.width || !meta.height) return null;
    // EXIF orientations 5-8 swap the sides the viewer sees.
    const swap = (meta.orientation ?? 1) >= 5;
    return {
      format: meta.format,
      width: swap ? meta.height : meta.width,
      height: swap ? meta.width : meta.height,
    };
  } catch {
    return null;
  }
}

export interface FigureImage {
  bytes: Buffer;
  mime_type: FigureMime;
  width: number;
  height: number;
}

/**
 * An embedded image as a figure: null when unreadable, too small to be a figure, too large to
 * decode, or SVG (rendering it could load files or URLs it names; it is never rendered).
 * PNG, JPEG, WEBP and GIF are kept byte for byte; other raster formats become PNG.
 */
export async function figureImage(bytes: Buffer): Promise<FigureImage | null> {
  const info = await probeImage(bytes);
  if (!info || info.format === 'svg') return null;
  if (!isFigureSized(info.width, info.height) || !withinPixelLimit(info.width, info.height))
    return null;
  const kept = KEPT[info.format];
  if (kept) return { bytes, mime_type: kept, width: info.width, height: info.height };
  try {
    const png = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .png()
      .toBuffer();
    return { bytes: png, mime_type: 'image/png', width: info.width, height: info.height };
  } catch {
    return null;
  }
}

/** Raw pixels (1, 3 or 4 channels of 8 bits) as a PNG. */
export async function rawToPng(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  channels: 1 | 3 | 4,
): Promise<Buffer> {
  return sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
    raw: { width, height, channels },
    limitInputPixels: MAX_IMAGE_PIXELS,
  })
    .png()
    .toBuffer();
}

export interface Thumbnail {
  bytes: Buffer;
  mime_type: 'image/webp';
  width: number;
  height: number;
}

/** A WEBP thumbnail that fits in {@link THUMBNAIL_SIZE} pixels (never enlarged), EXIF-rotated. */
export async function makeThumbnail(bytes: Buffer): Promise<Thumbnail> {
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, animated: false })
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, mime_type: 'image/webp', width: info.width, height: info.height };
}
