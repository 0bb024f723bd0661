/** The largest data: URI payload decoded (the upload cap): anything larger is not an image we keep. */
const MAX_DATA_URI_CHARS = 70 * 1024 * 1024;

/**
 * Decodes a `data:` URI (RFC 2397): base64 or percent-encoded payload. Null when `src` is not a
 * well-formed data URI.
 */
export function decodeDataUri(src: string): { mime: string; bytes: Buffer } | null {
  if (src.length > MAX_DATA_URI_CHARS) return null;
  const match = /^data:([^,]*?),/is.exec(src);
  if (!match) return null;
  const params = (match[1] ?? '').split(';').map((p) => p.trim());
  const base64 = params.some((p) => p.toLowerCase() === 'base64');
  const mime = (params[0] ?? '').toLowerCase() || 'text/plain';
  const payload = src.slice(match[0].length);
  try {
    const bytes = base64
      ? Buffer.from(payload.replace(/\s+/g, ''), 'base64')
      : Buffer.from(decodeURIComponent(payload), 'latin1');
    return bytes.length > 0 ? { mime, bytes } : null;
  } catch {
    return null;
  }
}
