export type DocumentErrorCode =
  'corrupt' | 'encrypted' | 'needs_ocr' | 'unsupported' | 'too_large' | 'timeout';

/**
 * A document could not be turned into sections. `message` is written for a person
 * (it can be shown to the uploader as is); `cause` keeps the library's own error.
 */
export class DocumentError extends Error {
  override readonly name = 'DocumentError';
  readonly code: DocumentErrorCode;

  constructor(code: DocumentErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isDocumentError(value: unknown): value is DocumentError {
  return value instanceof DocumentError;
}

/** Throws DocumentError 'timeout' when `signal` has been aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new DocumentError('timeout', 'parsing the document took too long and was stopped', {
      cause: signal.reason,
    });
  }
}
