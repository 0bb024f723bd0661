import sharp from 'sharp';
import { DocumentError, throwIfAborted } from '../errors.js';
import { MAX_IMAGE_PIXELS, probeImage, withinPixelLimit } from '../images/image.js';
import type { DocumentKind } from '../kinds.js';
import { markdownPlainText } from './ocrText.js';
import { analysePages } from './pdf.js';
import { assembleDocument } from './sections.js';
import type { FigureDraft, ParsedDocument, ParseOptions } from './types.js';

type ImageKind = Extract<DocumentKind, 'png' | 'jpeg' | 'webp'>;

const MIME: Record<ImageKind, FigureDraft['mime_type']> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/**
 * An image upload: checked from its header first (a pixel bomb is refused without decoding),
 * decoded once at a small size to prove it is whole, then read by OCR into sections. The image
 * itself is the document's one figure, whatever its size.
 */
export async function parseImage(
  kind: ImageKind,
  bytes: Buffer,
  opts: ParseOptions = {},
): Promise<ParsedDocument> {
  throwIfAborted(opts.signal);
  const info = await probeImage(bytes);
  if (!info)
    throw new DocumentError(
      'corrupt',
      `the ${kind.toUpperCase()} image is damaged or cannot be read`,
    );
  if (!withinPixelLimit(info.width, info.height)) {
    throw new DocumentError(
      'too_large',
      `the image is ${info.width}x${info.height} pixels, more than the ${MAX_IMAGE_PIXELS / 1_000_000} megapixels allowed`,
    );
  }
  try {
    // Shrink-on-load keeps this cheap; it fails on truncated or corrupt pixel data.
    await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' })
      .resize(64, 64, { fit: 'inside' })
      .toBuffer();
  } catch (err) {
    throw new DocumentError(
      'corrupt',
      `the ${kind.toUpperCase()} image is damaged: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
  if (!opts.ocr) {
    throw new DocumentError('needs_ocr', 'images are read by OCR, and no OCR engine is configured');
  }
  const result = await opts.ocr({ kind, bytes, signal: opts.signal });
  throwIfAborted(opts.signal);
  const markdown = result.pages.map((p) => p.markdown).join('\n\n');
  const raws = analysePages([{ items: [], height: info.height, ocrMarkdown: markdown }]);
  for (const raw of raws) {
    raw.page_start = null;
    raw.page_end = null;
    for (const t of raw.tables) t.page_number = null;
  }
  const ocrText = markdownPlainText(markdown) || null;
  const figure = {
    bytes,
    mime_type: MIME[kind],
    width: info.width,
    height: info.height,
    page_number: null,
    alt: null,
    ocr_text: ocrText,
  };
  // The figure opens the first section that has anything in it (the untitled lead-in is dropped
  // when empty).
  const first = raws.find(
    (r) => r.name !== null || r.markdown.trim() !== '' || r.tables.length > 0,
  );
  if (first) first.figures = [figure, ...(first.figures ?? [])];
  else
    raws.push({
      name: null,
      level: 0,
      markdown: '',
      page_start: null,
      page_end: null,
      tables: [],
      figures: [figure],
    });
  return assembleDocument(kind, null, 1, raws, [1]);
}
