import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3rver, type S3rverHandle } from '../../test-support/src/s3rver.js';
import { InvalidObjectKeyError, S3ObjectStore } from '../src/objectstore/index.js';

let s3: S3rverHandle;
let store: S3ObjectStore;
const key = 'tenants/t1/reports/r1/figures/f1/thumbnail.png';
const bytes = Buffer.from('pretend these are PNG bytes');

beforeAll(async () => {
  s3 = await startS3rver();
  store = new S3ObjectStore({
    bucket: 'presign-test',
    endpoint: s3.endpoint,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    region: s3.region,
  });
  await store.ensureReady();
  await store.put(key, bytes, { contentType: 'image/png' });
});
afterAll(async () => {
  await s3?.close();
});

async function waitUntil(epochSeconds: number): Promise<void> {
  while (Date.now() / 1000 <= epochSeconds) await new Promise((r) => setTimeout(r, 100));
}

describe('S3ObjectStore.presignedGetUrl', () => {
  // s3rver checks a presigned URL's credential and expiry but not its signature (and serves
  // anonymous reads), so the signature itself is S3's and MinIO's to check, not this test's.
  it('gives a SigV4 query-signed URL that fetches the object without credentials', async () => {
    const url = new URL(await store.presignedGetUrl(key, 600));
    expect(url.pathname).toBe(`/presign-test/${key}`);
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(
      /^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/,
    );
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
  });

  it('gives a URL that stops working when it expires', async () => {
    const issued = Math.floor(Date.now() / 1000);
    const url = await store.presignedGetUrl(key, 1);
    await waitUntil(issued + 2);
    expect((await fetch(url)).status).toBe(403);
  });

  it('checks the key and the lifetime before signing', async () => {
    await expect(store.presignedGetUrl('../etc/passwd', 60)).rejects.toBeInstanceOf(
      InvalidObjectKeyError,
    );
    await expect(store.presignedGetUrl(key, 0)).rejects.toBeInstanceOf(RangeError);
    await expect(store.presignedGetUrl(key, 604_801)).rejects.toBeInstanceOf(RangeError);
  });
});
