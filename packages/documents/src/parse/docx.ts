import mammoth from 'mammoth';
import { DocumentError, throwIfAborted } from '../errors.js';
import { DOCX_TITLE_CLASS, parseHtmlString } from './html.js';
import type { ParsedDocument, ParseOptions } from './types.js';
import { listZipEntries } from './zip.js';

const NOT_A_DOCX = 'the DOCX file is damaged or is not a Word document';

/** A DOCX may expand to at most this much (it is unpacked in memory). */
export const MAX_DOCX_EXPANDED_BYTES = 512 * 1024 * 1024;

const STYLE_MAP = [
  // Word's Title style names the document; it is not a section (see splitOnHeadings).
  `p[style-name='Title'] => h1.${DOCX_TITLE_CLASS}:fresh`,
  `p[style-name='title'] => h1.${DOCX_TITLE_CLASS}:fresh`,
];

/** Checks the zip directory: a Word document, of a size we are willing to unpack. */
function checkContainer(bytes: Buffer): void {
  const listing = listZipEntries(bytes);
  if (!listing.ok)
    throw new DocumentError('corrupt', NOT_A_DOCX, { cause: new Error(listing.reason) });
  if (listing.zip64) {
    throw new DocumentError(
      'too_large',
      'the DOCX file is too large (it needs ZIP64, which Word documents under 4 GB never do)',
    );
  }
  const names = new Set(listing.entries.map((e) => e.name.toLowerCase()));
  const looksLikeWord =
    names.has('word/document.xml') ||
    (names.has('[content_types].xml') && [...names].some((n) => /^word\/[^/]+\.xml$/.test(n)));
  if (!looksLikeWord)
    throw new DocumentError('corrupt', NOT_A_DOCX, {
      cause: new Error('no word/document.xml in the archive'),
    });
  const expanded = listing.entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (expanded > MAX_DOCX_EXPANDED_BYTES) {
    throw new DocumentError(
      'too_large',
      `the DOCX file expands to ${Math.round(expanded / 1048576)} MB, more than the ${MAX_DOCX_EXPANDED_BYTES / 1048576} MB allowed`,
    );
  }
}

async function convert(bytes: Buffer): Promise<string> {
  try {
    const result = await mammoth.convertToHtml(
      { buffer: bytes },
      {
        styleMap: STYLE_MAP,
        externalFileAccess: false,
        // Figures arrive in a later issue: keep only the alt text mammoth adds.
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    );
    return result.value;
  } catch (err) {
    throw new DocumentError('corrupt', NOT_A_DOCX, { cause: err });
  }
}

export async function parseDocx(bytes: Buffer, opts: ParseOptions = {}): Promise<ParsedDocument> {
  throwIfAborted(opts.signal);
  checkContainer(bytes);
  const html = await convert(bytes);
  throwIfAborted(opts.signal);
  return parseHtmlString('docx', html, { ...opts, docxTitles: true });
}

/** Benchmark baseline: mammoth.convertToHtml alone; returns the length of the HTML it produced. */
export async function bareExtractDocx(bytes: Buffer): Promise<number> {
  const result = await mammoth.convertToHtml({ buffer: bytes });
  return result.value.length;
}
