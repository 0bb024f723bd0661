/**
 * Why an OCR provider call failed, so the parse stage can decide between a
 * retry (the provider is busy, down, slow or answered garbage) and failing the
 * target (the provider refused this document or our credentials).
 */
export type OcrErrorCode = 'rate_limited' | 'unavailable' | 'timeout' | 'malformed' | 'rejected';

export class OcrError extends Error {
  override readonly name = 'OcrError';
  readonly code: OcrErrorCode;
  /** HTTP status of the provider's answer, when there was one. */
  readonly status: number | null;

  constructor(
    code: OcrErrorCode,
    message: string,
    options?: { cause?: unknown; status?: number | null },
  ) {
    super(message, options);
    this.code = code;
    this.status = options?.status ?? null;
  }

  /** Worth another attempt later: everything but a refusal of the document or the key. */
  get retryable(): boolean {
    return this.code !== 'rejected';
  }
}

export function isOcrError(error: unknown): error is OcrError {
  return error instanceof OcrError;
}
