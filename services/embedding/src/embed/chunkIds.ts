import { randomBytes } from 'node:crypto';

/** The counter's width: 32 bits, far more chunks than a target holds. */
const COUNTER_LIMIT = 2 ** 32;

/**
 * Ids for a target's chunks that sort in the order of the document: UUID version 7 (RFC 9562,
 * section 5.7) whose time is the target's upload, whose next 42 bits are random, the same for
 * every chunk of this write (two targets uploaded in one millisecond), and whose last 32 bits
 * count the chunks (section 6.2, method 1: a fixed-length dedicated counter). As text or as
 * `uuid` they order by upload, then by place in the document, which is the order both retrieval
 * legs and the fusion fall back on when two chunks score the same (docs/adr/137).
 */
export function documentOrderIds(uploadedAt: Date, count: number): string[] {
  if (count > COUNTER_LIMIT) throw new RangeError(`${count} chunks exceed the id counter`);
  const ms = uploadedAt.getTime();
  if (!Number.isSafeInteger(ms) || ms < 0 || ms >= 2 ** 48) {
    throw new RangeError(`upload time ${uploadedAt.toISOString()} does not fit 48 bits`);
  }
  const salt = randomBytes(6);
  const head = Buffer.alloc(12);
  head.writeUIntBE(ms, 0, 6);
  head[6] = 0x70 | (salt[0]! & 0x0f); // version 7, then 12 random bits
  head[7] = salt[1]!;
  head[8] = 0x80 | (salt[2]! & 0x3f); // variant 10, then 30 random bits
  head[9] = salt[3]!;
  head[10] = salt[4]!;
  head[11] = salt[5]!;
  const prefix = head.toString('hex');
  return Array.from({ length: count }, (_, i) => {
    const hex = prefix + i.toString(16).padStart(8, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  });
}
