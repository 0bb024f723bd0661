import type { FastifyRequest } from 'fastify';
import { createHash, randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import { AppError, type DocumentKind } from '@reports/contracts';
import { MIME_BY_KIND, checkUploadKind } from '@reports/documents';
import { originalKey, type Config, type ObjectStore } from '@reports/platform';

/** Spec: max file size 50 MB. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
const SNIFF_BYTES = 8192;
/** Kinds read through OCR; also what partner attachments may be (spec: PDF or image). */
export const OCR_KINDS: ReadonlySet<DocumentKind> = new Set(['pdf', 'png', 'jpeg', 'webp']);

export interface StoredUpload {
  kind: DocumentKind;
  contentType: string;
  filename: string;
  sizeBytes: number;
  sha256: string;
  objectKey: string;
}

/**
 * A filename safe to show and store as a label: no directories, no control or
 * bidi characters, at most 255 characters. The object key never uses it.
 */
export function cleanFilename(raw: string | undefined, kind: DocumentKind): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .slice(0, 255);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? `upload.${kind}` : cleaned;
}

/** Reads until `n` bytes (or the end) are in hand, leaving the stream open for the rest. */
async function readHead(stream: Readable, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
    const buf = chunk as Buffer;
    chunks.push(buf);
    size += buf.length;
    if (size >= n) break;
  }
  return Buffer.concat(chunks);
}

/** The checks that need only the first bytes: empty (400), type (415), OCR (503). */
function checkHead(
  head: Buffer,
  file: MultipartFile,
  config: Config,
  allowedKinds?: ReadonlySet<DocumentKind>,
): DocumentKind {
  if (head.length === 0) throw new AppError('empty_file');
  const check = checkUploadKind(head, file.mimetype, file.filename);
  if (!check.ok)
    throw new AppError('unsupported_media_type', `unsupported media type: ${check.reason}`);
  if (allowedKinds && !allowedKinds.has(check.kind))
    throw new AppError(
      'unsupported_media_type',
      `unsupported media type: ${check.kind} is not accepted here (${[...allowedKinds].join(', ')})`,
    );
  if (config.OCR_PROVIDER === 'mistral' && !config.MISTRAL_API_KEY && OCR_KINDS.has(check.kind)) {
    throw new AppError(
      'ocr_unavailable',
      'OCR provider is not configured: set MISTRAL_API_KEY or OCR_PROVIDER=local',
    );
  }
  return check.kind;
}

/**
 * Checks and streams one uploaded file into the object store: type by magic
 * bytes (415), empty (400), OCR availability (503), 50 MB cap while streaming
 * (413, nothing left behind). Memory stays at one chunk whatever the size.
 */
export async function storeUpload(
  file: MultipartFile,
  opts: {
    objectStore: ObjectStore;
    config: Config;
    keyPrefix: string;
    /** Kinds this endpoint takes (all of them when absent); others answer 415. */
    allowedKinds?: ReadonlySet<DocumentKind>;
  },
): Promise<StoredUpload> {
  const source = file.file;
  let tooLarge = false;
  source.once('limit', () => {
    tooLarge = true;
  });
  const head = await readHead(source, SNIFF_BYTES);
  let sniffed: DocumentKind;
  try {
    sniffed = checkHead(head, file, opts.config, opts.allowedKinds);
  } catch (error) {
    // Drain what is left so the request ends and the connection is freed.
    source.resume();
    throw error;
  }

  const hash = createHash('sha256');
  let size = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > MAX_UPLOAD_BYTES || tooLarge) {
        done(new AppError('file_too_large'));
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      // Busboy ends the file stream quietly at the limit; refuse what was cut short.
      done(tooLarge || source.truncated ? new AppError('file_too_large') : null);
    },
  });
  source.on('error', (error) => counted.destroy(error));
  counted.write(head);
  source.pipe(counted);

  const objectKey = originalKey(opts.keyPrefix, sniffed);
  const contentType = MIME_BY_KIND[sniffed];
  await opts.objectStore.put(objectKey, counted, { contentType });
  if (size === 0) throw new AppError('empty_file');
  return {
    kind: sniffed,
    contentType,
    filename: cleanFilename(file.filename, sniffed),
    sizeBytes: size,
    sha256: hash.digest('hex'),
    objectKey,
  };
}

export function newReportId(): string {
  return randomUUID();
}

/**
 * Reads a multipart upload form: the first `file` part goes to `store` (while the
 * request streams), other fields are collected. 415 when the body is not
 * multipart, 400 `missing_file` when no file part came.
 */
export async function readUploadForm(
  request: FastifyRequest,
  store: (file: MultipartFile) => Promise<StoredUpload>,
): Promise<{ upload: StoredUpload; fields: Record<string, unknown> }> {
  if (!request.isMultipart()) {
    throw new AppError(
      'unsupported_media_type',
      'unsupported media type: send multipart/form-data',
    );
  }
  let upload: StoredUpload | null = null;
  const fields: Record<string, unknown> = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || upload) {
        part.file.resume();
        continue;
      }
      upload = await store(part);
    } else {
      fields[part.fieldname] = part.value;
    }
  }
  if (!upload) throw new AppError('missing_file');
  return { upload, fields };
}
