import { simpleParser, type ParsedMail } from 'mailparser';
import { DocumentError, throwIfAborted } from '../errors.js';
import { decodeDataUri } from './dataUri.js';
import { parseHtmlString } from './html.js';
import type { ParsedDocument, ParseOptions } from './types.js';

/** A resource part of an MHTML file, by the names an `<img src>` may use for it. */
export interface MhtmlPart {
  /** Content-ID without angle brackets. */
  contentId: string | null;
  /** Content-Location as written. */
  location: string | null;
}

function stripAngles(id: string): string {
  return id.trim().replace(/^<|>$/g, '');
}

function tryUrl(href: string, base?: string): URL | null {
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}

/** A URL without its fragment, for comparing references. */
function normalise(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/**
 * Which part an `<img src>` names (index into `parts`), or null. Order of evidence: `cid:` against
 * Content-ID; the src exactly as some part's Content-Location; the src resolved against the page's
 * own location (`base`) as a Content-Location; last, a relative src that ends some part's
 * location (savers that write `file:///C:/.../report_files/image1.png` and refer to it as
 * `report_files/image1.png`). Pure: it only compares names, nothing is fetched.
 */
export function resolveMhtmlReference(
  src: string,
  base: string | null,
  parts: readonly MhtmlPart[],
): number | null {
  const ref = src.trim();
  if (ref === '') return null;
  if (/^cid:/i.test(ref)) {
    const id = decodeURIComponent(ref.slice(4));
    const i = parts.findIndex((p) => p.contentId !== null && p.contentId === stripAngles(id));
    return i >= 0 ? i : null;
  }
  const exact = parts.findIndex((p) => p.location === ref);
  if (exact >= 0) return exact;
  const absolute = tryUrl(ref, base ?? undefined);
  if (absolute) {
    const want = normalise(absolute);
    const i = parts.findIndex((p) => {
      const loc = p.location ? tryUrl(p.location) : null;
      return loc !== null && normalise(loc) === want;
    });
    if (i >= 0) return i;
  }
  if (!/^[a-z][a-z0-9+.-]*:/i.test(ref) && !ref.startsWith('/')) {
    const tail = '/' + ref.replace(/^\.\//, '').split('#')[0];
    const i = parts.findIndex((p) => p.location !== null && p.location.endsWith(tail));
    if (i >= 0) return i;
  }
  return null;
}

/** The multipart boundary declared by the top-level header, or null. */
function boundaryOf(mail: ParsedMail): string | null {
  const type = mail.headers.get('content-type');
  if (type && typeof type === 'object' && 'params' in type) {
    const boundary = (type.params as Record<string, unknown>).boundary;
    if (typeof boundary === 'string' && boundary !== '') return boundary;
  }
  return null;
}

function headerString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * MHTML (a saved web page): a MIME multipart/related message, parsed with mailparser. The HTML
 * part goes through the HTML path; images it references by `cid:` or Content-Location resolve to
 * the message's own parts. Nothing is fetched, whatever the page names. A message without a
 * boundary, without its closing delimiter (cut short) or without an HTML part is damaged.
 */
export async function parseMhtml(bytes: Buffer, opts: ParseOptions = {}): Promise<ParsedDocument> {
  throwIfAborted(opts.signal);
  let mail: ParsedMail;
  try {
    mail = await simpleParser(bytes, {
      keepCidLinks: true,
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      skipImageLinks: true,
    });
  } catch (err) {
    throw new DocumentError(
      'corrupt',
      'the MHTML file is damaged: its MIME structure cannot be read',
      {
        cause: err,
      },
    );
  }
  throwIfAborted(opts.signal);
  const boundary = boundaryOf(mail);
  if (!boundary) {
    throw new DocumentError(
      'corrupt',
      'the MHTML file is damaged: it declares no MIME boundary, so its parts cannot be found',
    );
  }
  if (!bytes.includes(`--${boundary}--`, 0, 'latin1')) {
    throw new DocumentError(
      'corrupt',
      'the MHTML file is damaged: it ends early (its last part is cut off before the closing boundary)',
    );
  }
  if (typeof mail.html !== 'string' || mail.html.trim() === '') {
    throw new DocumentError('corrupt', 'the MHTML file is damaged: it holds no HTML page');
  }
  const attachments = mail.attachments;
  const parts: MhtmlPart[] = attachments.map((a) => ({
    contentId: a.contentId ? stripAngles(a.contentId) : null,
    location: headerString(a.headers.get('content-location')),
  }));
  const base = headerString(mail.headers.get('snapshot-content-location'));
  return parseHtmlString('mhtml', mail.html, {
    ...opts,
    resolveImage: (src) => {
      if (/^data:/i.test(src)) return decodeDataUri(src)?.bytes ?? null;
      const i = resolveMhtmlReference(src, base, parts);
      const part = i === null ? undefined : attachments[i];
      return part && part.contentType.startsWith('image/') ? part.content : null;
    },
  });
}
