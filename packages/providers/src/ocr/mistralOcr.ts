import { AsyncLocalStorage } from 'node:async_hooks';
import { HTTPClient, Mistral } from '@mistralai/mistralai';
import type { OCRRequest, OCRResponse } from '@mistralai/mistralai/models/components';
import {
  ConnectionError,
  MistralError,
  RequestTimeoutError,
  ResponseValidationError,
  SDKValidationError,
} from '@mistralai/mistralai/models/errors';
import type { OcrEngine, OcrImage, OcrInputKind, OcrPage, OcrResult } from './ocr.js';
import { OcrError } from './ocrError.js';

/**
 * Price of Mistral OCR per 1000 pages, in cents (integer minor units): plain
 * recognition, and recognition with image (bbox) annotations. Mistral's public
 * prices when written (docs/adr/016); an unknown model is priced as
 * `mistral-ocr-latest`, so cost is never silently zero.
 */
export const MISTRAL_OCR_PRICES: Readonly<
  Record<string, { centsPer1000Pages: number; annotatedCentsPer1000Pages: number }>
> = {
  'mistral-ocr-latest': { centsPer1000Pages: 100, annotatedCentsPer1000Pages: 300 },
  'mistral-ocr-2505': { centsPer1000Pages: 100, annotatedCentsPer1000Pages: 300 },
  'mistral-ocr-2512': { centsPer1000Pages: 200, annotatedCentsPer1000Pages: 300 },
};

/** Spec: annotations are skipped on the first attempt for PDFs above 500 KB. */
export const ANNOTATION_PDF_LIMIT_BYTES = 500 * 1024;
/** Spec: OCR timeout 900000 ms. */
export const MISTRAL_OCR_TIMEOUT_MS = 900_000;

/**
 * Cost of one OCR call: pages times the model's price per page, rounded up to
 * whole cents once per call (a 3-page scan costs 1 cent, not 0).
 */
export function mistralOcrCostCents(model: string, pages: number, annotated: boolean): number {
  const price = MISTRAL_OCR_PRICES[model] ?? MISTRAL_OCR_PRICES['mistral-ocr-latest']!;
  const per1000 = annotated ? price.annotatedCentsPer1000Pages : price.centsPer1000Pages;
  return Math.ceil((pages * per1000) / 1000);
}

/** Whether the first call asks for image annotations (spec: not for PDFs above 500 KB). */
export function annotateFirstAttempt(kind: OcrInputKind, sizeBytes: number): boolean {
  return !(kind === 'pdf' && sizeBytes > ANNOTATION_PDF_LIMIT_BYTES);
}

/** What happened on the way to a result, for the caller's log. */
export type MistralOcrEvent =
  | { type: 'annotations_skipped'; size_bytes: number }
  | { type: 'retry_without_annotations'; error: string };

export interface MistralOcrOptions {
  apiKey: string;
  /** The API's base URL; Mistral's own when absent. Tests point it at a local server. */
  serverURL?: string;
  /** Default `mistral-ocr-latest`. */
  model?: string;
  /** Time budget of one call, the SDK's own retries included. Default 900000 ms (spec). */
  timeoutMs?: number;
  /**
   * JSON Schema of the annotation asked for each image (`bbox_annotation_format`).
   * The caller owns the shape of an annotation; the engine only transports it.
   */
  imageAnnotationSchema: Record<string, unknown>;
  /** Backoff of the SDK's retries on 429 and 5xx (milliseconds). */
  retry?: { initialIntervalMs?: number; maxIntervalMs?: number; maxElapsedMs?: number };
  onEvent?(event: MistralOcrEvent): void;
}

const MIME: Record<OcrInputKind, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

const EXTENSION_MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** Image bytes and type from Mistral's `image_base64` (a data URL, or bare base64). */
function decodeImage(
  id: string,
  base64: string | null | undefined,
): Pick<OcrImage, 'bytes' | 'mime_type'> {
  const ext = /\.([a-z0-9]+)$/i.exec(id)?.[1]?.toLowerCase();
  const byExtension = ext ? (EXTENSION_MIME[ext] ?? null) : null;
  if (!base64) return { bytes: null, mime_type: byExtension };
  const match = /^data:([^;,]+);base64,/.exec(base64);
  const bytes = Buffer.from(match ? base64.slice(match[0].length) : base64, 'base64');
  return { bytes: bytes.length > 0 ? bytes : null, mime_type: match?.[1] ?? byExtension };
}

/** The model's annotation JSON, or null when absent or not a JSON object (then it is thin). */
function parseAnnotation(text: string | null | undefined): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function toPages(response: OCRResponse): OcrPage[] {
  return response.pages.map((page) => ({
    index: page.index,
    markdown: page.markdown,
    images: page.images.map((image) => {
      const { topLeftX: x1, topLeftY: y1, bottomRightX: x2, bottomRightY: y2 } = image;
      return {
        id: image.id,
        ...decodeImage(image.id, image.imageBase64),
        bbox:
          x1 !== null && y1 !== null && x2 !== null && y2 !== null
            ? { x: x1, y: y1, width: x2 - x1, height: y2 - y1 }
            : null,
        annotation: parseAnnotation(image.imageAnnotation),
      };
    }),
  }));
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Maps the SDK's errors onto {@link OcrError} codes. */
function toOcrError(error: unknown): OcrError {
  if (error instanceof OcrError) return error;
  if (error instanceof RequestTimeoutError)
    return new OcrError('timeout', 'Mistral OCR did not answer in time', { cause: error });
  // The SDK lets JSON.parse's SyntaxError through for a body that is not JSON at all.
  if (
    error instanceof ResponseValidationError ||
    error instanceof SDKValidationError ||
    error instanceof SyntaxError
  )
    return new OcrError(
      'malformed',
      `Mistral OCR answered with a malformed body: ${error.message}`,
      {
        cause: error,
      },
    );
  if (error instanceof ConnectionError)
    return new OcrError('unavailable', `Mistral OCR is unreachable: ${error.message}`, {
      cause: error,
    });
  if (error instanceof MistralError) {
    const status = error.statusCode;
    // A 2xx the SDK could not read (wrong content type, say) is a malformed answer.
    if (status >= 200 && status < 300)
      return new OcrError(
        'malformed',
        `Mistral OCR answered with a malformed body: ${error.message}`,
        {
          cause: error,
          status,
        },
      );
    if (status === 429)
      return new OcrError('rate_limited', 'Mistral OCR rate limit exceeded', {
        cause: error,
        status,
      });
    if (status >= 500)
      return new OcrError('unavailable', `Mistral OCR answered ${status}`, {
        cause: error,
        status,
      });
    return new OcrError(
      'rejected',
      `Mistral OCR refused the document (${status}): ${error.body.slice(0, 300)}`,
      { cause: error, status },
    );
  }
  return new OcrError('unavailable', `Mistral OCR call failed: ${describe(error)}`, {
    cause: error,
  });
}

/** The signal of the call an engine is making, for `signalledFetch`. */
const callSignal = new AsyncLocalStorage<AbortSignal>();

/**
 * `fetch` with the call's own signal. The SDK sends a `Request` built with that signal, and
 * undici follows a `Request`'s signal through a weak reference: once the `Request` is collected
 * while the call runs, the caller's abort or the timeout never reaches the call (Node 20: after a
 * garbage collection, a call to a server that never answers went on after its stage had aborted
 * it). Given to `fetch` itself, the signal is held for as long as the call runs.
 */
function signalledFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const signal = callSignal.getStore();
  return fetch(input, signal ? { ...init, signal } : init);
}

/**
 * Mistral OCR (`client.ocr.process`) behind {@link OcrEngine}: the whole
 * document goes up as a base64 data URL, pages come back as markdown with their
 * images (base64) and, when asked for, a JSON annotation of each image.
 *
 * - Image annotations are requested, except on the first attempt for PDFs above
 *   500 KB (spec); a failed first call that asked for them is made once more
 *   without them.
 * - 429 and 5xx are retried by the SDK with backoff (Retry-After honoured);
 *   each call has a time budget (900000 ms by default, spec).
 * - Cost is pages processed times the price per page ({@link MISTRAL_OCR_PRICES}).
 */
export class MistralOcrEngine implements OcrEngine {
  readonly provider = 'mistral';
  readonly readsWholeDocuments = true;
  readonly model: string;
  private readonly client: Mistral;
  private readonly timeoutMs: number;

  constructor(private readonly options: MistralOcrOptions) {
    this.model = options.model ?? 'mistral-ocr-latest';
    this.timeoutMs = options.timeoutMs ?? MISTRAL_OCR_TIMEOUT_MS;
    this.client = new Mistral({
      apiKey: options.apiKey,
      httpClient: new HTTPClient({ fetcher: signalledFetch }),
      ...(options.serverURL ? { serverURL: options.serverURL } : {}),
      retryConfig: {
        strategy: 'backoff',
        backoff: {
          initialInterval: options.retry?.initialIntervalMs ?? 1000,
          maxInterval: options.retry?.maxIntervalMs ?? 30_000,
          exponent: 1.5,
          maxElapsedTime: options.retry?.maxElapsedMs ?? 120_000,
        },
        // A timed-out call is not retried by the SDK: its signal stays aborted, and the
        // fallback without annotations (or the stage's retry) is the better second try.
        retryConnectionErrors: false,
      },
    });
  }

  async recognise(input: {
    kind: OcrInputKind;
    bytes: Buffer;
    pages?: number[];
    signal?: AbortSignal;
  }): Promise<OcrResult> {
    const annotate = annotateFirstAttempt(input.kind, input.bytes.length);
    if (!annotate)
      this.options.onEvent?.({ type: 'annotations_skipped', size_bytes: input.bytes.length });
    try {
      return await this.call(input, annotate);
    } catch (error) {
      if (input.signal?.aborted || !annotate) throw toOcrError(error);
      this.options.onEvent?.({
        type: 'retry_without_annotations',
        error: toOcrError(error).message,
      });
      try {
        return await this.call(input, false);
      } catch (second) {
        throw toOcrError(second);
      }
    }
  }

  private async call(
    input: { kind: OcrInputKind; bytes: Buffer; pages?: number[]; signal?: AbortSignal },
    annotate: boolean,
  ): Promise<OcrResult> {
    const dataUrl = `data:${MIME[input.kind]};base64,${input.bytes.toString('base64')}`;
    const request: OCRRequest = {
      model: this.model,
      document:
        input.kind === 'pdf'
          ? { type: 'document_url', documentUrl: dataUrl }
          : { type: 'image_url', imageUrl: dataUrl },
      includeImageBase64: true,
      ...(input.pages ? { pages: input.pages } : {}),
      ...(annotate
        ? {
            bboxAnnotationFormat: {
              type: 'json_schema',
              jsonSchema: {
                name: 'figure_annotation',
                schemaDefinition: this.options.imageAnnotationSchema,
                strict: true,
              },
            },
          }
        : {}),
    };
    // One controller for the caller's signal and the time budget, held by the timer and by the
    // caller's listener until the call settles (a signal of `AbortSignal.any` or
    // `AbortSignal.timeout` is held by no one but the call).
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(input.signal?.reason);
    if (input.signal?.aborted) onAbort();
    else input.signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no answer within ${this.timeoutMs} ms`));
    }, this.timeoutMs);
    let response: OCRResponse;
    try {
      response = await callSignal.run(controller.signal, () =>
        this.client.ocr.process(request, { signal: controller.signal }),
      );
    } catch (error) {
      if (timedOut && !input.signal?.aborted)
        throw new OcrError('timeout', `Mistral OCR did not answer within ${this.timeoutMs} ms`, {
          cause: error,
        });
      throw error;
    } finally {
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onAbort);
    }
    const pages = toPages(response);
    const processed = response.usageInfo.pagesProcessed;
    return {
      pages,
      provider: this.provider,
      model: this.model,
      cost_cents: mistralOcrCostCents(this.model, processed, annotate),
      annotated: annotate && pages.some((p) => p.images.some((i) => i.annotation !== null)),
    };
  }
}
