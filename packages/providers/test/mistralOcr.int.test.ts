import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  MISTRAL_OCR_PATH,
  RICH_ANNOTATION,
  startFakeMistral,
  tinyPng,
  type FakeServer,
  type RecordedRequest,
} from '@reports/test-support';
import { buildPdf, buildScannedPdf, sampleReportSpec } from '@reports/test-support';
import {
  ANNOTATION_PDF_LIMIT_BYTES,
  MistralOcrEngine,
  OcrError,
  annotateFirstAttempt,
  mistralOcrCostCents,
  type MistralOcrEvent,
  type MistralOcrOptions,
} from '../src/index.js';

const SCHEMA = { type: 'object', properties: { summary: { type: 'string' } } };

let mistral: FakeServer;
let scan: Buffer;
let threePages: Buffer;
let events: MistralOcrEvent[];

beforeAll(async () => {
  mistral = await startFakeMistral();
  scan = await buildScannedPdf();
  threePages = await buildPdf(sampleReportSpec({ sections: 2 }), { pages: 3 });
});
afterAll(async () => {
  await mistral?.close();
});
afterEach(() => {
  mistral.reset();
  mistral.requests.length = 0;
});

function engine(options: Partial<MistralOcrOptions> = {}): MistralOcrEngine {
  events = [];
  return new MistralOcrEngine({
    apiKey: 'test-key',
    serverURL: mistral.url,
    imageAnnotationSchema: SCHEMA,
    retry: { initialIntervalMs: 10, maxIntervalMs: 50, maxElapsedMs: 30_000 },
    onEvent: (e) => events.push(e),
    ...options,
  });
}

const ocrCalls = (): Array<Record<string, unknown>> =>
  mistral.requests
    .filter((r) => r.path === MISTRAL_OCR_PATH)
    .map((r) => r.body as Record<string, unknown>);
const annotated = (r: RecordedRequest) =>
  (r.body as Record<string, unknown>).bbox_annotation_format != null;

describe('MistralOcrEngine', () => {
  it('sends a PDF as a base64 data URL, asks for images and their annotations, and maps the pages', async () => {
    const result = await engine().recognise({ kind: 'pdf', bytes: threePages });
    const [call] = ocrCalls();
    expect(mistral.requests[0]!.headers.authorization).toBe('Bearer test-key');
    expect(call).toMatchObject({
      model: 'mistral-ocr-latest',
      document: {
        type: 'document_url',
        document_url: `data:application/pdf;base64,${threePages.toString('base64')}`,
      },
      include_image_base64: true,
      bbox_annotation_format: {
        type: 'json_schema',
        json_schema: { name: 'figure_annotation', schema: SCHEMA, strict: true },
      },
    });
    expect(result.pages).toHaveLength(3);
    expect(result.pages[1]!.index).toBe(1);
    expect(result.pages[1]!.markdown).toContain('# Page 2 findings');
    const image = result.pages[0]!.images[0]!;
    expect(image.id).toBe('img-0.png');
    expect(image.mime_type).toBe('image/png');
    expect(Buffer.compare(image.bytes!, tinyPng())).toBe(0);
    expect(image.bbox).toEqual({ x: 100, y: 200, width: 800, height: 500 });
    expect(image.annotation).toEqual(RICH_ANNOTATION);
    expect(result).toMatchObject({
      provider: 'mistral',
      model: 'mistral-ocr-latest',
      annotated: true,
    });
  });

  it('records the cost per page at the annotated price, rounded up to whole cents per call', async () => {
    const result = await engine().recognise({ kind: 'pdf', bytes: threePages });
    expect(result.cost_cents).toBe(mistralOcrCostCents('mistral-ocr-latest', 3, true));
    expect(mistralOcrCostCents('mistral-ocr-latest', 3, true)).toBe(1);
    expect(mistralOcrCostCents('mistral-ocr-latest', 1000, true)).toBe(300);
    expect(mistralOcrCostCents('mistral-ocr-latest', 1000, false)).toBe(100);
    expect(mistralOcrCostCents('mistral-ocr-latest', 0, false)).toBe(0);
    expect(mistralOcrCostCents('some-future-ocr', 2000, false)).toBe(200);
  });

  it('sends an image as an image_url data URL with its own type', async () => {
    const png = tinyPng(64, 48);
    const result = await engine().recognise({ kind: 'png', bytes: png });
    expect(ocrCalls()[0]!.document).toEqual({
      type: 'image_url',
      image_url: `data:image/png;base64,${png.toString('base64')}`,
    });
    expect(result.pages).toHaveLength(1);
  });

  it('asks only for the pages it is given', async () => {
    const result = await engine().recognise({ kind: 'pdf', bytes: threePages, pages: [0, 2] });
    expect(ocrCalls()[0]!.pages).toEqual([0, 2]);
    expect(result.pages.map((p) => p.index)).toEqual([0, 2]);
  });

  it('skips annotations on the first attempt for a PDF above 500 KB', async () => {
    const big = Buffer.concat([scan, Buffer.from(`%${'x'.repeat(ANNOTATION_PDF_LIMIT_BYTES)}\n`)]);
    expect(annotateFirstAttempt('pdf', big.length)).toBe(false);
    expect(annotateFirstAttempt('pdf', ANNOTATION_PDF_LIMIT_BYTES)).toBe(true);
    expect(annotateFirstAttempt('png', big.length)).toBe(true);
    const result = await engine().recognise({ kind: 'pdf', bytes: big });
    expect(ocrCalls()).toHaveLength(1);
    expect(ocrCalls()[0]!.bbox_annotation_format).toBeUndefined();
    expect(result.annotated).toBe(false);
    expect(result.pages[0]!.images[0]!.annotation).toBeNull();
    expect(events).toEqual([{ type: 'annotations_skipped', size_bytes: big.length }]);
  });

  it('retries a 429 (the SDK, with backoff) and keeps the annotations', async () => {
    mistral.script(MISTRAL_OCR_PATH, {
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '0' },
      body: { message: 'Requests rate limit exceeded' },
    });
    const result = await engine().recognise({ kind: 'pdf', bytes: scan });
    expect(ocrCalls()).toHaveLength(2);
    expect(mistral.requests.every(annotated)).toBe(true);
    expect(result.annotated).toBe(true);
  });

  it('retries a 500 and a 503 and then succeeds', async () => {
    mistral.script(
      MISTRAL_OCR_PATH,
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503 },
    );
    const result = await engine().recognise({ kind: 'pdf', bytes: scan });
    expect(ocrCalls()).toHaveLength(3);
    expect(result.pages).toHaveLength(1);
  });

  it('retries without annotations when the call with them keeps failing', async () => {
    mistral.rule(MISTRAL_OCR_PATH, annotated, { kind: 'status', status: 502 });
    const result = await engine({
      retry: { initialIntervalMs: 1, maxIntervalMs: 1, maxElapsedMs: 1 },
    }).recognise({ kind: 'pdf', bytes: scan });
    const calls = mistral.requests.filter((r) => r.path === MISTRAL_OCR_PATH);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(annotated(calls[0]!)).toBe(true);
    expect(annotated(calls.at(-1)!)).toBe(false);
    expect(result.annotated).toBe(false);
    expect(result.cost_cents).toBe(mistralOcrCostCents('mistral-ocr-latest', 1, false));
    expect(events).toEqual([
      { type: 'retry_without_annotations', error: 'Mistral OCR answered 502' },
    ]);
  });

  it('retries without annotations after a malformed body', async () => {
    mistral.script(MISTRAL_OCR_PATH, { kind: 'json', body: { pages: 'none', model: 7 } });
    const result = await engine().recognise({ kind: 'pdf', bytes: scan });
    expect(ocrCalls().map((c) => c.bbox_annotation_format != null)).toEqual([true, false]);
    expect(result.pages).toHaveLength(1);
  });

  it('fails with a retryable malformed error when both answers are malformed', async () => {
    mistral.script(
      MISTRAL_OCR_PATH,
      { kind: 'raw', body: '<html>gateway error</html>', contentType: 'text/html' },
      { kind: 'raw', body: '{"pages": [' },
    );
    const error = await engine()
      .recognise({ kind: 'pdf', bytes: scan })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcrError);
    expect((error as OcrError).code).toBe('malformed');
    expect((error as OcrError).retryable).toBe(true);
  });

  it('gives up on a call that hangs past the timeout and retries it without annotations', async () => {
    mistral.script(MISTRAL_OCR_PATH, { kind: 'hang' });
    const result = await engine({ timeoutMs: 1500 }).recognise({ kind: 'pdf', bytes: scan });
    expect(ocrCalls().map((c) => c.bbox_annotation_format != null)).toEqual([true, false]);
    expect(result.pages).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'retry_without_annotations' });
    expect((events[0] as { error: string }).error).toMatch(/within 1500 ms/);
  });

  it('fails with a retryable timeout when the second call hangs too', async () => {
    mistral.script(MISTRAL_OCR_PATH, { kind: 'hang' }, { kind: 'hang' });
    const error = await engine({ timeoutMs: 1000 })
      .recognise({ kind: 'pdf', bytes: scan })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcrError);
    expect((error as OcrError).code).toBe('timeout');
    expect((error as OcrError).retryable).toBe(true);
  });

  it('fails for good when the key is refused, after the one call without annotations', async () => {
    mistral.rule(MISTRAL_OCR_PATH, () => true, {
      kind: 'status',
      status: 401,
      body: { message: 'Unauthorized', request_id: 'x' },
    });
    const error = await engine()
      .recognise({ kind: 'pdf', bytes: scan })
      .catch((e: unknown) => e);
    expect(ocrCalls()).toHaveLength(2);
    expect(error).toBeInstanceOf(OcrError);
    expect((error as OcrError).code).toBe('rejected');
    expect((error as OcrError).status).toBe(401);
    expect((error as OcrError).retryable).toBe(false);
  });

  it('stops at once, without a second call, when the caller aborts', async () => {
    mistral.script(MISTRAL_OCR_PATH, { kind: 'hang' }, { kind: 'hang' });
    const controller = new AbortController();
    const pending = engine().recognise({ kind: 'pdf', bytes: scan, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stage attempt over')), 200);
    await expect(pending).rejects.toBeInstanceOf(OcrError);
    expect(ocrCalls()).toHaveLength(1);
  });

  it('stops when the caller aborts after a garbage collection ran during the call', async () => {
    // The SDK's Request follows the call's signal only weakly: collected mid-call, it used to
    // take the abort with it, and the call hung on a server that never answers.
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    mistral.script(MISTRAL_OCR_PATH, { kind: 'hang' }, { kind: 'hang' });
    const controller = new AbortController();
    const pending = engine().recognise({ kind: 'pdf', bytes: scan, signal: controller.signal });
    await vi.waitFor(() => expect(ocrCalls()).toHaveLength(1));
    gc();
    controller.abort(new Error('stage attempt over'));
    await expect(pending).rejects.toBeInstanceOf(OcrError);
    expect(ocrCalls()).toHaveLength(1);
  });

  it('treats an annotation that is not JSON as none (the figure stays pending)', async () => {
    const thin = await startFakeMistral({
      ocrPages: () => [
        {
          markdown: 'Photo\n\n![img-0.jpeg](img-0.jpeg)',
          images: [{ id: 'img-0.jpeg', png: tinyPng(), annotation: null }],
        },
      ],
    });
    try {
      const result = await new MistralOcrEngine({
        apiKey: 'k',
        serverURL: thin.url,
        imageAnnotationSchema: SCHEMA,
      }).recognise({ kind: 'jpeg', bytes: tinyPng() });
      expect(result.pages[0]!.images[0]!.annotation).toBeNull();
      expect(result.annotated).toBe(false);
    } finally {
      await thin.close();
    }
  });
});
