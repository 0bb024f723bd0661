/**
 * The error catalogue: every coded error the interface can answer with. The
 * gateway maps a thrown `AppError` to its HTTP status and the body
 * `{ code, detail }` in one place.
 */
export const ERRORS = {
  bad_request: { status: 400, detail: 'bad request' },
  empty_file: { status: 400, detail: 'the uploaded file is empty' },
  missing_file: { status: 400, detail: 'a multipart field named "file" is required' },
  unauthorized: { status: 401, detail: 'not authenticated' },
  invalid_hmac: { status: 401, detail: 'invalid HMAC' },
  admin_disabled: { status: 403, detail: 'admin disabled' },
  forbidden: { status: 403, detail: 'forbidden' },
  invalid_file_signature: { status: 403, detail: 'the link is invalid or has expired' },
  not_found: { status: 404, detail: 'not found' },
  conflict: { status: 409, detail: 'conflict' },
  attachment_immutable: {
    status: 409,
    detail: 'partner attachments are immutable; only user uploads can be deleted',
  },
  file_too_large: { status: 413, detail: 'the file is larger than 50 MB' },
  body_too_large: { status: 400, detail: 'the request body is larger than 1 MiB' },
  unsupported_media_type: { status: 415, detail: 'unsupported media type' },
  validation_failed: { status: 422, detail: 'request validation failed' },
  ingestion_failed: { status: 422, detail: 'the report could not be processed' },
  unknown_model: {
    status: 422,
    detail: 'the model is not available here; GET /models lists the models you can choose',
  },
  rate_limited: { status: 429, detail: 'rate limit exceeded' },
  internal: { status: 500, detail: 'internal server error' },
  scope_not_implemented: { status: 501, detail: 'retrieval scope not implemented' },
  model_error: { status: 502, detail: 'the model failed while answering' },
  chat_interrupted: { status: 504, detail: 'the chat service stopped answering' },
  ocr_unavailable: { status: 503, detail: 'OCR provider is not configured' },
  embedding_unavailable: { status: 503, detail: 'embedding provider is unavailable' },
  service_unavailable: { status: 503, detail: 'a dependency is unavailable' },
  secrets_unavailable: {
    status: 503,
    detail: 'SECRETS_KEY is not configured: API keys cannot be stored',
  },
  partner_jwt_disabled: {
    status: 503,
    detail: 'partner sign-in is not configured (PARTNER_JWT_PUBLIC_KEY is unset)',
  },
  partner_hmac_disabled: {
    status: 503,
    detail: 'partner uploads are not configured (PARTNER_HMAC_SECRET is unset)',
  },
} as const satisfies Record<string, { status: number; detail: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** An error with a catalogue code; `detail` overrides the catalogue text where more is known. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string;

  constructor(code: ErrorCode, detail?: string, options?: { cause?: unknown }) {
    const entry = ERRORS[code];
    super(detail ?? entry.detail, options);
    this.name = 'AppError';
    this.code = code;
    this.status = entry.status;
    this.detail = detail ?? entry.detail;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
