import mammoth from 'mammoth';
import { DocumentError, throwIfAborted } from '../errors.js';
import { DOCX_TITLE_CLASS, parseHtmlString } from './html.js';
import type { ParsedDocument, ParseOptions } from './types.js';
import { isSafeEntryName, listZipEntries, readZipEntry } from './zip.js';

const NOT_A_DOCX = 'the DOCX file is damaged or is not a Word document';

/**
 * A DOCX may expand to at most this much (it is unpacked in memory). Text compresses about ten
 * to one and images not at all, so a 50 MB upload stays far below it.
 */
export const MAX_DOCX_EXPANDED_BYTES = 256 * 1024 * 1024;

/** Word's XML never declares a DTD; one that does is an entity-expansion ("billion laughs") bomb. */
const DTD = /<!(DOCTYPE|ENTITY)/i;

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
  const unsafe = listing.entries.find((e) => !isSafeEntryName(e.name));
  if (unsafe)
    throw new DocumentError(
      'corrupt',
      `the DOCX file is not a safe archive: it holds an entry named ${JSON.stringify(unsafe.name.slice(0, 100))}`,
    );
  const expanded = listing.entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (expanded > MAX_DOCX_EXPANDED_BYTES) {
    throw new DocumentError(
      'too_large',
      `the DOCX file expands to ${Math.round(expanded / 1048576)} MB, more than the ${MAX_DOCX_EXPANDED_BYTES / 1048576} MB allowed`,
    );
  }
  // The sizes above are what the archive claims. Each entry is inflated once here with its claim
  // as the limit, so one that lies (a zip bomb) is caught before the library unpacks it blindly.
  for (const entry of listing.entries) {
    if (entry.name.endsWith('/')) continue;
    const read = readZipEntry(bytes, entry);
    if (!read.ok)
      throw new DocumentError('corrupt', `${NOT_A_DOCX}: ${read.reason}`, {
        cause: new Error(read.reason),
      });
    if (/\.(xml|rels)$/i.test(entry.name) && DTD.test(read.data.toString('latin1'))) {
      throw new DocumentError(
        'corrupt',
        `the DOCX file is not a safe document: ${entry.name} declares XML entities, which Word never writes`,
      );
    }
  }
}

/** Prefix of the `cid:` references our convertImage hands mammoth; resolved from `media`. */
const MEDIA_REF = 'cid:docx-media-';

async function convert(bytes: Buffer): Promise<{ html: string; media: Map<string, Buffer> }> {
  const media = new Map<string, Buffer>();
  try {
    const result = await mammoth.convertToHtml(
      { buffer: bytes },
      {
        styleMap: STYLE_MAP,
        // Linked (external) images are never read: not from disk, not from the network.
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async (image) => {
          try {
            const ref = `${MEDIA_REF}${media.size}`;
            media.set(ref, await image.readAsBuffer());
            return { src: ref };
          } catch {
            return { src: '' }; // a linked image, or one that cannot be read: alt text only
          }
        }),
      },
    );
    return { html: result.value, media };
  } catch (err) {
    throw new DocumentError('corrupt', NOT_A_DOCX, { cause: err });
  }
}

export async function parseDocx(bytes: Buffer, opts: ParseOptions = {}): Promise<ParsedDocument> {
  throwIfAborted(opts.signal);
  checkContainer(bytes);
  const { html, media } = await convert(bytes);
  throwIfAborted(opts.signal);
  return parseHtmlString('docx', html, {
    ...opts,
    docxTitles: true,
    resolveImage: (src) => media.get(src) ?? null,
  });
}

/** Benchmark baseline: mammoth.convertToHtml alone; returns the length of the HTML it produced. */
export async function bareExtractDocx(bytes: Buffer): Promise<number> {
  const result = await mammoth.convertToHtml({ buffer: bytes });
  return result.value.length;
}
