import { inflateRawSync } from 'node:zlib';

/** One entry of a zip central directory. */
export interface ZipEntry {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  /** 0 = stored, 8 = deflated; anything else is not used by Word. */
  method: number;
  /** Offset of the entry's local header. */
  localOffset: number;
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
    const method = bytes.readUInt16LE(p + 10);
    const compressedSize = bytes.readUInt32LE(p + 20);
    const uncompressedSize = bytes.readUInt32LE(p + 24);
    const nameLength = bytes.readUInt16LE(p + 28);
    const extraLength = bytes.readUInt16LE(p + 30);
    const commentLength = bytes.readUInt16LE(p + 32);
    const localOffset = bytes.readUInt32LE(p + 42);
    const name = bytes.toString('utf8', p + 46, p + 46 + nameLength);
    entries.push({ name, compressedSize, uncompressedSize, method, localOffset });
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff)
      return { ok: true, entries, zip64: true };
    p += 46 + nameLength + extraLength + commentLength;
  }
  return { ok: true, entries, zip64: false };
}

/**
 * Whether an entry name is safe: relative, no `..` segment, no backslash, no drive letter, no
 * control character. Word never writes anything else; an archive that does is built to attack
 * an unpacker (zip-slip).
 */
export function isSafeEntryName(name: string): boolean {
  if (name === '' || name.startsWith('/') || name.includes('\\') || /^[a-z]:/i.test(name))
    return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return !name.split('/').some((segment) => segment === '..');
}

/**
 * Inflates one entry, refusing to produce more than its declared size (an entry that lies about
 * its size is a zip bomb): returns the bytes, or a reason.
 */
export function readZipEntry(
  bytes: Buffer,
  entry: ZipEntry,
): { ok: true; data: Buffer } | { ok: false; reason: string } {
  const p = entry.localOffset;
  if (p + 30 > bytes.length || bytes.readUInt32LE(p) !== 0x04034b50)
    return { ok: false, reason: `the local header of ${entry.name} is damaged` };
  const start = p + 30 + bytes.readUInt16LE(p + 26) + bytes.readUInt16LE(p + 28);
  const end = start + entry.compressedSize;
  if (end > bytes.length)
    return { ok: false, reason: `${entry.name} runs past the end of the file` };
  const raw = bytes.subarray(start, end);
  if (entry.method === 0) {
    return raw.length === entry.uncompressedSize
      ? { ok: true, data: raw }
      : { ok: false, reason: `${entry.name} is not the size it declares` };
  }
  if (entry.method !== 8)
    return { ok: false, reason: `${entry.name} uses compression method ${entry.method}` };
  try {
    // One byte of headroom: producing it proves the entry is larger than it says.
    const data = inflateRawSync(raw, { maxOutputLength: entry.uncompressedSize + 1 });
    if (data.length !== entry.uncompressedSize)
      return { ok: false, reason: `${entry.name} is not the size it declares` };
    return { ok: true, data };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return /maxOutputLength|buffer/i.test(message) && !/unexpected end/i.test(message)
      ? { ok: false, reason: `${entry.name} expands beyond the size it declares` }
      : { ok: false, reason: `${entry.name} cannot be decompressed (${message})` };
  }
}
