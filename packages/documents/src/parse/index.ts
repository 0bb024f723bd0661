import { DocumentError, throwIfAborted } from '../errors.js';
import type { DocumentKind } from '../kinds.js';
import type { ParsedDocument, ParseOptions } from './types.js';

function unsupported(kind: never): DocumentError {
  return new DocumentError('unsupported', `${String(kind)} documents are not supported`);
}

/**
 * Parses a document into sections, tables and figures. Fails with DocumentError (see its `code`);
 * any other exception is a bug. The parsers are loaded on first use, so importing this package
 * (e.g. for sniffing) stays cheap. Nothing the document references is ever fetched.
 */
export async function parseDocument(
  kind: DocumentKind,
  bytes: Buffer,
  opts: ParseOptions = {},
): Promise<ParsedDocument> {
  throwIfAborted(opts.signal);
  switch (kind) {
    case 'pdf':
      return (await import('./pdf.js')).parsePdf(bytes, opts);
    case 'docx':
      return (await import('./docx.js')).parseDocx(bytes, opts);
    case 'html':
      return (await import('./html.js')).parseHtml(bytes, opts);
    case 'mhtml':
      return (await import('./mhtml.js')).parseMhtml(bytes, opts);
    case 'png':
    case 'jpeg':
    case 'webp':
      return (await import('./image.js')).parseImage(kind, bytes, opts);
    default:
      throw unsupported(kind);
  }
}

/**
 * Benchmark baseline: only the underlying library's own extraction on the same bytes (pdf.js
 * getTextContent over all pages / mammoth.convertToHtml / sanitize-html), returning the number of
 * characters it produced, so a benchmark can compare parseDocument against the bare library.
 */
export async function bareExtract(kind: DocumentKind, bytes: Buffer): Promise<number> {
  switch (kind) {
    case 'pdf':
      return (await import('./pdf.js')).bareExtractPdf(bytes);
    case 'docx':
      return (await import('./docx.js')).bareExtractDocx(bytes);
    case 'html':
      return (await import('./html.js')).bareExtractHtml(bytes);
    default:
      throw new DocumentError('unsupported', `no bare extraction baseline for ${kind}`);
  }
}
