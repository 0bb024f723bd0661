/** One entry of a zip central directory. */
export interface ZipEntry {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
}

export type ZipListing =
  { ok: true; entries: ZipEntry[]; zip64: boolean } | { ok: false; reason: string };

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const MAX_COMMENT = 0xffff;

/**
 * Reads a zip's central directory (names and declared sizes) without inflating anything, so a
 * DOCX can be checked and size-limited before a library unpacks it in memory.
 */
export function listZipEntries(bytes: Buffer): ZipListing {
  if (bytes.length < 22) return { ok: false, reason: 'the file is too short to be a zip archive' };
  let eocd = -1;
  const stop = Math.max(0, bytes.length - 22 - MAX_COMMENT);
  for (let i = bytes.length - 22; i >= stop; i--) {
    if (bytes.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0)
    return {
      ok: false,
      reason: 'no zip end-of-central-directory record (the file is truncated or not a zip)',
    };
  const count = bytes.readUInt16LE(eocd + 10);
  const size = bytes.readUInt32LE(eocd + 12);
  const offset = bytes.readUInt32LE(eocd + 16);
  const zip64 = count === 0xffff || size === 0xffffffff || offset === 0xffffffff;
  if (zip64) return { ok: true, entries: [], zip64: true };
  if (offset + size > eocd)
    return { ok: false, reason: 'the zip central directory points outside the file' };
  const entries: ZipEntry[] = [];
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > eocd || bytes.readUInt32LE(p) !== CENTRAL_SIGNATURE) {
      return { ok: false, reason: 'the zip central directory is damaged' };
    }
    const compressedSize = bytes.readUInt32LE(p + 20);
    const uncompressedSize = bytes.readUInt32LE(p + 24);
    const nameLength = bytes.readUInt16LE(p + 28);
    const extraLength = bytes.readUInt16LE(p + 30);
    const commentLength = bytes.readUInt16LE(p + 32);
    const name = bytes.toString('utf8', p + 46, p + 46 + nameLength);
    entries.push({ name, compressedSize, uncompressedSize });
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff)
      return { ok: true, entries, zip64: true };
    p += 46 + nameLength + extraLength + commentLength;
  }
  return { ok: true, entries, zip64: false };
}
