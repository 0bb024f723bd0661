/** How far into an HTML file to look for a `<meta charset>` declaration. */
const META_SCAN_BYTES = 4096;

// windows-1252 bytes 0x80-0x9f; the rest of the range is ISO-8859-1. (Node 20's TextDecoder
// decodes "windows-1252" as plain ISO-8859-1, mapping 0x80 to U+0080 instead of "€".)
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

export function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH.charAt(c.charCodeAt(0) - 0x80));
}

function decode(decoder: InstanceType<typeof TextDecoder>, bytes: Uint8Array): string {
  return decoder.encoding === 'windows-1252' ? decodeWindows1252(bytes) : decoder.decode(bytes);
}

function decoderFor(label: string): InstanceType<typeof TextDecoder> | null {
  try {
    return new TextDecoder(label.trim().toLowerCase());
  } catch {
    return null;
  }
}

/** The charset an HTML file declares in a `<meta charset>` or `http-equiv` content-type in its first 4 KB. */
export function metaCharset(bytes: Buffer): string | null {
  const head = bytes.subarray(0, META_SCAN_BYTES).toString('latin1');
  for (const match of head.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = match[0];
    const direct = /\bcharset\s*=\s*["']?\s*([A-Za-z0-9_:.+-]+)/i.exec(tag);
    if (direct?.[1]) return direct[1];
  }
  return null;
}

/**
 * Decodes HTML bytes the way a browser would, simplified: a BOM wins; then a declared
 * `<meta charset>` (unknown labels fall back to windows-1252; a UTF-16 label without a BOM
 * means UTF-8, as in the HTML standard); otherwise UTF-8, or windows-1252 when the bytes are
 * not valid UTF-8.
 */
export function decodeHtmlBytes(bytes: Buffer): { text: string; encoding: string } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  }
  const declared = metaCharset(bytes);
  if (declared) {
    let decoder = decoderFor(declared) ?? new TextDecoder('windows-1252');
    if (decoder.encoding.startsWith('utf-16')) decoder = new TextDecoder('utf-8');
    return { text: decode(decoder, bytes), encoding: decoder.encoding };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: decodeWindows1252(bytes), encoding: 'windows-1252' };
  }
}
