import type { DocumentKind } from './kinds.js';

export const MIME_BY_KIND: Record<DocumentKind, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  mhtml: 'multipart/related',
  html: 'text/html',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** How many bytes of the file `sniffDocumentKind` wants to see. */
export const SNIFF_BYTES = 8192;

/** Readers accept this much junk before `%PDF-`. */
const PDF_JUNK_LIMIT = 1024;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function startsWith(head: Buffer, bytes: Buffer | string, at = 0): boolean {
  const sig = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
  return head.length >= at + sig.length && head.subarray(at, at + sig.length).equals(sig);
}

/** `<tag` prefixes that open an HTML document; each must be followed by whitespace, `>` or `/`. */
const HTML_TAGS = [
  '!doctype html',
  'html',
  'head',
  'body',
  'meta',
  'title',
  'div',
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
];

function looksLikeHtml(text: string): boolean {
  let s = text.replace(/^[\s\u00a0]+/, '').toLowerCase();
  // An XHTML document may open with an XML declaration.
  if (s.startsWith('<?xml')) {
    const end = s.indexOf('?>');
    if (end < 0) return false;
    s = s.slice(end + 2).replace(/^\s+/, '');
  }
  if (s.startsWith('<!--')) return true;
  for (const tag of HTML_TAGS) {
    if (s.startsWith(`<${tag}`)) {
      const next = s.charAt(tag.length + 1);
      if (next === '' || next === '>' || next === '/' || /\s/.test(next)) return true;
    }
  }
  return false;
}

function sniffHtml(head: Buffer): boolean {
  if (startsWith(head, Buffer.from([0xff, 0xfe])) || startsWith(head, Buffer.from([0xfe, 0xff]))) {
    const le = head[0] === 0xff;
    const body = head.subarray(2, 2 + ((head.length - 2) & ~1));
    const text = new TextDecoder(le ? 'utf-16le' : 'utf-16be').decode(body);
    return !text.includes('\u0000') && looksLikeHtml(text);
  }
  if (head.includes(0)) return false;
  const body = startsWith(head, Buffer.from([0xef, 0xbb, 0xbf])) ? head.subarray(3) : head;
  return looksLikeHtml(body.toString('latin1'));
}

/**
 * MHTML: the file opens with a block of RFC 822 header lines (From:, MIME-Version:, Subject:,
 * Content-Type:, ...) whose Content-Type is multipart/related.
 */
function sniffMhtml(head: Buffer): boolean {
  if (head.includes(0)) return false;
  const text = head
    .toString('latin1')
    .replace(/^(\ufeff|\xef\xbb\xbf)/, '')
    .replace(/^[\r\n]+/, '');
  const lines = text.split(/\r?\n/);
  const headers: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '') break;
    if (/^[ \t]/.test(line) && headers.length > 0) {
      headers[headers.length - 1] += ` ${line.trim()}`;
    } else if (/^[A-Za-z][A-Za-z0-9-]*:/.test(line)) {
      headers.push(line);
    } else if (i === lines.length - 1 && headers.length > 0) {
      break; // the head was cut in the middle of a line
    } else {
      return false; // not a header line: this is not a MIME message
    }
  }
  return headers.some((h) => /^content-type:\s*multipart\/related\b/i.test(h));
}

/** The kind a file really is, from its first bytes (pass up to 8192 of them), or null if none fits. */
export function sniffDocumentKind(head: Buffer): DocumentKind | null {
  if (startsWith(head, '%PDF-')) return 'pdf';
  if (startsWith(head, PNG_SIGNATURE)) return 'png';
  if (startsWith(head, Buffer.from([0xff, 0xd8, 0xff]))) return 'jpeg';
  if (startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8)) return 'webp';
  if (startsWith(head, Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'docx';
  if (sniffMhtml(head)) return 'mhtml';
  if (sniffHtml(head)) return 'html';
  const pdfAt = head.subarray(0, PDF_JUNK_LIMIT + 5).indexOf('%PDF-', 0, 'latin1');
  if (pdfAt >= 0 && pdfAt <= PDF_JUNK_LIMIT) return 'pdf';
  return null;
}

const KIND_BY_MIME: Record<string, DocumentKind> = {
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/webp': 'webp',
  'multipart/related': 'mhtml',
  'message/rfc822': 'mhtml',
  'application/x-mimearchive': 'mhtml',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/** Content types that say nothing about the file. */
const GENERIC_MIMES = new Set([
  '',
  'application/octet-stream',
  'binary/octet-stream',
  'application/unknown',
  'application/binary',
]);

const KIND_BY_EXTENSION: Record<string, DocumentKind> = {
  pdf: 'pdf',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  webp: 'webp',
  mht: 'mhtml',
  mhtml: 'mhtml',
  html: 'html',
  htm: 'html',
  docx: 'docx',
};

/**
 * The kind the uploader says the file is: from the content type (parameters ignored), or when
 * that is missing or generic (application/octet-stream) from the file name's extension.
 * 'unknown' when neither says anything; 'unsupported' when either clearly names something else
 * (application/zip, .exe, ...). A "name.2024"-style suffix without letters is not an extension.
 */
export function declaredKind(
  mime: string | undefined,
  filename: string | undefined,
): DocumentKind | 'unknown' | 'unsupported' {
  const type = (mime ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!GENERIC_MIMES.has(type)) return KIND_BY_MIME[type] ?? 'unsupported';
  const base = (filename ?? '').split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || dot === base.length - 1) return 'unknown';
  const ext = base
    .slice(dot + 1)
    .trim()
    .toLowerCase();
  const kind = KIND_BY_EXTENSION[ext];
  if (kind) return kind;
  return /^[a-z][a-z0-9]{0,7}$/.test(ext) ? 'unsupported' : 'unknown';
}

export type UploadKindCheck = { ok: true; kind: DocumentKind } | { ok: false; reason: string };

/**
 * The gateway's rule in one place: accept when the bytes sniff as a kind and the declaration is
 * either silent or agrees; `reason` (for a 415 answer) otherwise.
 */
export function checkUploadKind(
  head: Buffer,
  mime: string | undefined,
  filename: string | undefined,
): UploadKindCheck {
  const sniffed = sniffDocumentKind(head);
  const declared = declaredKind(mime, filename);
  if (declared === 'unsupported') {
    return {
      ok: false,
      reason: `this file type is not supported (declared as ${mime?.trim() || filename || 'unknown'})`,
    };
  }
  if (sniffed === null) {
    return {
      ok: false,
      reason: 'the file is not a PDF, PNG, JPEG, WEBP, MHTML, HTML or DOCX document',
    };
  }
  if (declared !== 'unknown' && declared !== sniffed) {
    return {
      ok: false,
      reason: `the file was declared as ${declared.toUpperCase()} but its content is ${sniffed.toUpperCase()}`,
    };
  }
  return { ok: true, kind: sniffed };
}
