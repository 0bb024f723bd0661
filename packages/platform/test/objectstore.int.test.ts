import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Client } from 'minio';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startS3rver } from '../../test-support/src/s3rver.js';
import type { S3rverHandle } from '../../test-support/src/s3rver.js';
import {
  InvalidObjectKeyError,
  ObjectNotFoundError,
  ObjectTooLargeError,
  createObjectStore,
} from '../src/objectstore/index.js';
import type { ObjectStore } from '../src/objectstore/index.js';

const MiB = 1024 * 1024;

/** One backend under test: how to get a fresh, empty store, and what to expect of its internals. */
interface Backend {
  name: 'local' | 's3';
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A new empty store (own directory or bucket), not yet ensureReady'd. */
  create(): Promise<ObjectStore>;
  /** Files the backend keeps besides objects (temp uploads); must be empty when no put is running. */
  leftovers(store: ObjectStore): Promise<string[]>;
  /** Whether a stream longer than 5 MiB goes up as a multipart upload (S3) or not (local). */
  usesMultipart: boolean;
}

function localBackend(): Backend {
  const tempDirs: string[] = [];
  const storeRoots = new Map<ObjectStore, string>();
  return {
    name: 'local',
    usesMultipart: false,
    async start() {},
    async stop() {
      await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
    async create() {
      const dir = await mkdtemp(join(tmpdir(), 'objectstore-conformance-'));
      tempDirs.push(dir);
      // A root that does not exist yet, so that ensureReady has something to create.
      const root = join(dir, 'store');
      const store = createObjectStore({ url: pathToFileURL(root).href });
      storeRoots.set(store, root);
      return store;
    },
    async leftovers(store) {
      const root = storeRoots.get(store);
      if (root === undefined) throw new Error('unknown store');
      return readdir(join(root, '.tmp'));
    },
  };
}

function s3Backend(): Backend {
  let server: S3rverHandle | undefined;
  return {
    name: 's3',
    usesMultipart: true,
    async start() {
      server = await startS3rver();
    },
    async stop() {
      await server?.close();
    },
    async create() {
      if (server === undefined) throw new Error('s3rver not started');
      return createObjectStore({
        url: `s3://conformance-${randomUUID().slice(0, 8)}`,
        s3Endpoint: server.endpoint,
        s3AccessKey: server.accessKey,
        s3SecretKey: server.secretKey,
        s3Region: server.region,
      });
    },
    // Nothing is visible until CompleteMultipartUpload; what matters is checked through the API.
    async leftovers() {
      return [];
    },
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * A stream of `totalBytes` random bytes in irregular chunk sizes (so part boundaries fall inside
 * chunks), with no length attached. With `failWith`, it errors after `totalBytes` instead of ending.
 */
function generatedStream(
  totalBytes: number,
  failWith?: Error,
): { stream: Readable; digest(): string } {
  const hash = createHash('sha256');
  let produced = 0;
  let chunkIndex = 0;
  const stream = new Readable({
    read() {
      if (produced >= totalBytes) {
        if (failWith) this.destroy(failWith);
        else this.push(null);
        return;
      }
      const size = Math.min(totalBytes - produced, 1 + ((chunkIndex++ * 7919) % (96 * 1024)));
      const chunk = randomBytes(size);
      hash.update(chunk);
      produced += size;
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

const INVALID_KEYS = ['../x', '/abs', 'a//b', 'a/./b', 'a\\b', 'a\u0000b'];

describe.each([localBackend(), s3Backend()])('object store conformance: $name', (backend) => {
  let store: ObjectStore;

  beforeAll(() => backend.start());
  afterAll(() => backend.stop());

  beforeEach(async () => {
    store = await backend.create();
    await store.ensureReady();
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('reports its kind', () => {
    expect(store.kind).toBe(backend.name);
  });

  it('round-trips a buffer with its content type', async () => {
    const body = Buffer.from('%PDF-1.7 pretend report\n');
    const key = 'tenants/t1/reports/r1/original/report.pdf';

    await expect(store.put(key, body, { contentType: 'application/pdf' })).resolves.toEqual({
      size: body.length,
      contentType: 'application/pdf',
    });

    expect(await store.getBuffer(key)).toEqual(body);
    expect(await readAll(await store.get(key))).toEqual(body);
    expect(await store.stat(key)).toEqual({ size: body.length, contentType: 'application/pdf' });
  });

  it('round-trips a stream with its content type', async () => {
    const text = 'line one\nline two\n'.repeat(1000);
    const key = 'tenants/t1/reports/r1/derived/text.txt';

    const info = await store.put(key, Readable.from([text.slice(0, 7), text.slice(7)]), {
      contentType: 'text/plain; charset=utf-8',
    });

    expect(info).toEqual({
      size: Buffer.byteLength(text),
      contentType: 'text/plain; charset=utf-8',
    });
    expect((await readAll(await store.get(key))).toString('utf8')).toBe(text);
    expect(await store.stat(key)).toEqual({
      size: Buffer.byteLength(text),
      contentType: 'text/plain; charset=utf-8',
    });
  });

  it('records application/octet-stream when no content type is given', async () => {
    await store.put('a/buffer', Buffer.from('x'));
    await store.put('a/stream', Readable.from([Buffer.from('y')]));

    expect(await store.stat('a/buffer')).toEqual({
      size: 1,
      contentType: 'application/octet-stream',
    });
    expect(await store.stat('a/stream')).toEqual({
      size: 1,
      contentType: 'application/octet-stream',
    });
  });

  it('stores an empty buffer and an empty stream', async () => {
    await store.put('empty/buffer', Buffer.alloc(0));
    await store.put('empty/stream', Readable.from([]));

    expect(await store.getBuffer('empty/buffer')).toEqual(Buffer.alloc(0));
    expect(await store.getBuffer('empty/stream')).toEqual(Buffer.alloc(0));
    expect(await store.stat('empty/stream')).toMatchObject({ size: 0 });
  });

  it('round-trips a 6 MiB stream of unknown length byte for byte (multipart on S3)', async () => {
    const multipart = vi.spyOn(Client.prototype, 'initiateNewMultipartUpload');
    const total = 6 * MiB + 12_345;
    const { stream, digest } = generatedStream(total);
    const key = 'tenants/t1/reports/r1/original/big.bin';

    const info = await store.put(key, stream, { contentType: 'application/octet-stream' });

    expect(info.size).toBe(total);
    expect(multipart).toHaveBeenCalledTimes(backend.usesMultipart ? 1 : 0);
    const expected = digest();
    expect(sha256(await readAll(await store.get(key)))).toBe(expected);
    expect(sha256(await store.getBuffer(key))).toBe(expected);
    expect(await store.stat(key)).toEqual({ size: total, contentType: 'application/octet-stream' });
  });

  it('stores a stream of exactly one part size (5 MiB) in one request', async () => {
    const multipart = vi.spyOn(Client.prototype, 'initiateNewMultipartUpload');
    const { stream, digest } = generatedStream(5 * MiB);

    await store.put('exact/five.bin', stream);

    expect(multipart).not.toHaveBeenCalled();
    expect(sha256(await store.getBuffer('exact/five.bin'))).toBe(digest());
  });

  it.each([
    ['early, before a full part', 64 * 1024, false],
    ['after the first part', 7 * MiB, false],
    ['midway, after multipart parts were sent', 12 * MiB, true],
  ])(
    'a stream that errors %s rejects with that error and leaves no object',
    async (_when, bytesBeforeError, multipartStarted) => {
      const multipart = vi.spyOn(Client.prototype, 'initiateNewMultipartUpload');
      const boom = new Error('source stream failed');
      const { stream } = generatedStream(bytesBeforeError, boom);
      const key = 'tenants/t1/reports/r1/original/broken.bin';

      await expect(store.put(key, stream)).rejects.toBe(boom);
      // Guards the test itself: the last case must really fail inside a multipart upload on S3.
      expect(multipart).toHaveBeenCalledTimes(backend.usesMultipart && multipartStarted ? 1 : 0);

      expect(await store.stat(key)).toBeNull();
      await expect(store.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      expect(await store.list('')).toEqual([]);
      expect(await backend.leftovers(store)).toEqual([]);
    },
  );

  it('a failed overwrite leaves the previous object intact', async () => {
    const key = 'tenants/t1/reports/r1/original/keep.txt';
    await store.put(key, Buffer.from('version one'), { contentType: 'text/plain' });
    const { stream } = generatedStream(12 * MiB, new Error('disconnected'));

    await expect(store.put(key, stream, { contentType: 'application/pdf' })).rejects.toThrow(
      'disconnected',
    );

    expect((await store.getBuffer(key)).toString()).toBe('version one');
    expect(await store.stat(key)).toEqual({ size: 11, contentType: 'text/plain' });
  });

  it('an object is invisible until its stream has ended', async () => {
    const source = new PassThrough();
    const key = 'in-flight/object.bin';
    const putting = store.put(key, source);
    source.write(randomBytes(256 * 1024));
    // Wait until the store has actually consumed what was written.
    await vi.waitFor(() => expect(source.readableLength + source.writableLength).toBe(0));

    expect(await store.stat(key)).toBeNull();
    expect(await store.list('')).toEqual([]);

    source.end(Buffer.from('tail'));
    await expect(putting).resolves.toMatchObject({ size: 256 * 1024 + 4 });
    expect(await store.list('')).toEqual([key]);
  });

  it('get and getBuffer of a missing key reject with ObjectNotFoundError', async () => {
    await expect(store.get('tenants/t1/missing.pdf')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(store.getBuffer('tenants/t1/missing.pdf')).rejects.toBeInstanceOf(
      ObjectNotFoundError,
    );
    await expect(store.getBuffer('tenants/t1/missing.pdf')).rejects.toMatchObject({
      name: 'ObjectNotFoundError',
      key: 'tenants/t1/missing.pdf',
    });
  });

  it('a "folder" of other keys is not an object', async () => {
    await store.put('folder/inner.txt', Buffer.from('x'));

    expect(await store.stat('folder')).toBeNull();
    await expect(store.get('folder')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await store.delete('folder');
    expect(await store.list('')).toEqual(['folder/inner.txt']);
  });

  it('getBuffer beyond maxBytes rejects with ObjectTooLargeError; at maxBytes it succeeds', async () => {
    const body = randomBytes(2 * MiB);
    await store.put('big/two-mib.bin', body);

    await expect(
      store.getBuffer('big/two-mib.bin', { maxBytes: 2 * MiB - 1 }),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    await expect(store.getBuffer('big/two-mib.bin', { maxBytes: 1024 })).rejects.toMatchObject({
      name: 'ObjectTooLargeError',
      maxBytes: 1024,
    });
    // Compare digests: toEqual on megabyte Buffers is very slow.
    expect(sha256(await store.getBuffer('big/two-mib.bin', { maxBytes: 2 * MiB }))).toBe(
      sha256(body),
    );
  });

  it('stat of a missing key is null', async () => {
    expect(await store.stat('tenants/t1/nothing-here')).toBeNull();
  });

  it('delete is idempotent', async () => {
    const key = 'tenants/t1/reports/r1/original/delete-me.txt';
    await store.delete(key);
    await store.put(key, Buffer.from('bye'));

    await store.delete(key);
    await store.delete(key);

    expect(await store.stat(key)).toBeNull();
    await expect(store.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await store.list('')).toEqual([]);
  });

  it('list returns only keys under the prefix, sorted, with no sidecars or temp files', async () => {
    const keys = [
      'tenants/t2/reports/r9/original/z.pdf',
      'tenants/t1/reports/r2/original/b.pdf',
      'tenants/t10/reports/r1/original/a.pdf',
      'tenants/t1/reports/r1/original/b.docx',
      'tenants/t1/reports/r1/derived/page-1.png',
      'tenants/t1/reports/r1/original/a.pdf',
      'tenants/t1/reports/r1/original/a.pdf.meta.json',
      'top-level.txt',
    ];
    for (const key of keys) await store.put(key, Buffer.from(key), { contentType: 'text/plain' });

    expect(await store.list('tenants/t1/')).toEqual([
      'tenants/t1/reports/r1/derived/page-1.png',
      'tenants/t1/reports/r1/original/a.pdf',
      'tenants/t1/reports/r1/original/a.pdf.meta.json',
      'tenants/t1/reports/r1/original/b.docx',
      'tenants/t1/reports/r2/original/b.pdf',
    ]);
    // A plain string prefix, as in S3: it need not end at a "/".
    expect(await store.list('tenants/t1')).toEqual([
      'tenants/t1/reports/r1/derived/page-1.png',
      'tenants/t1/reports/r1/original/a.pdf',
      'tenants/t1/reports/r1/original/a.pdf.meta.json',
      'tenants/t1/reports/r1/original/b.docx',
      'tenants/t1/reports/r2/original/b.pdf',
      'tenants/t10/reports/r1/original/a.pdf',
    ]);
    expect(await store.list('tenants/t1/reports/r1/original/a')).toEqual([
      'tenants/t1/reports/r1/original/a.pdf',
      'tenants/t1/reports/r1/original/a.pdf.meta.json',
    ]);
    expect(await store.list('tenants/t3/')).toEqual([]);
    expect(await store.list('')).toEqual([...keys].sort());
  });

  it('a key that looks like a sidecar does not disturb its neighbour', async () => {
    await store.put('r/a.pdf', Buffer.from('pdf'), { contentType: 'application/pdf' });
    await store.put('r/a.pdf.meta.json', Buffer.from('{}'), { contentType: 'application/json' });

    expect(await store.stat('r/a.pdf')).toEqual({ size: 3, contentType: 'application/pdf' });
    expect(await store.stat('r/a.pdf.meta.json')).toEqual({
      size: 2,
      contentType: 'application/json',
    });
  });

  it.each(INVALID_KEYS)('the invalid key %j is rejected by every method', async (key) => {
    const rejectsKey = (promise: Promise<unknown>) =>
      expect(promise).rejects.toBeInstanceOf(InvalidObjectKeyError);

    await rejectsKey(store.put(key, Buffer.from('x')));
    await rejectsKey(store.put(key, Readable.from([Buffer.from('x')])));
    await rejectsKey(store.get(key));
    await rejectsKey(store.getBuffer(key));
    await rejectsKey(store.stat(key));
    await rejectsKey(store.delete(key));
    await rejectsKey(store.list(key));
    expect(await store.list('')).toEqual([]);
  });

  it('list accepts the empty prefix but rejects an invalid one', async () => {
    await expect(store.list('')).resolves.toEqual([]);
    await expect(store.list('/')).rejects.toBeInstanceOf(InvalidObjectKeyError);
  });

  it('overwriting a key replaces its bytes and content type', async () => {
    const key = 'tenants/t1/reports/r1/original/report.pdf';
    await store.put(key, Buffer.from('first version, longer'), { contentType: 'application/pdf' });

    await store.put(key, Readable.from([Buffer.from('second')]), { contentType: 'text/plain' });

    expect((await store.getBuffer(key)).toString()).toBe('second');
    expect(await store.stat(key)).toEqual({ size: 6, contentType: 'text/plain' });
    expect(await store.list('')).toEqual([key]);
  });

  it('ensureReady is idempotent and keeps existing objects', async () => {
    await store.put('kept.txt', Buffer.from('still here'));

    await store.ensureReady();
    await store.ensureReady();
    await Promise.all([store.ensureReady(), store.ensureReady()]);

    expect((await store.getBuffer('kept.txt')).toString()).toBe('still here');
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('ping throws until ensureReady has run', async () => {
    const fresh = await backend.create();

    await expect(fresh.ping()).rejects.toThrow();
    await fresh.ensureReady();
    await expect(fresh.ping()).resolves.toBeUndefined();
  });
});
