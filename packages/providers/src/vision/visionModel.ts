/** An image a vision model can read: its bytes and MIME type. */
export interface FigureImage {
  bytes: Buffer;
  mime_type: string;
}

/** Tokens one call used, for cost. */
export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
}

/** One model answer: the raw message text (validated by the caller) and what it cost. */
export interface ModelAnswer {
  content: string;
  usage: ModelUsage;
}

/**
 * Why a model call failed. `unavailable` (429 or 5xx after the SDK's own
 * retries, timeouts, connection errors) is worth a later attempt; `rejected`
 * (bad key, model refused the request) is not; `malformed` means the answer was
 * not a chat completion at all.
 */
export class AnnotatorError extends Error {
  override readonly name = 'AnnotatorError';
  constructor(
    readonly kind: 'unavailable' | 'rejected' | 'malformed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A multimodal model behind one method. Implementations call the provider once
 * (with the SDK's retries on 429 and 5xx) and return the message text; checking
 * it is the caller's job, so a malformed answer can be retried the same way for
 * every provider.
 */
export interface VisionModel {
  /** Written as `annotation_source` (`openai`, `gemini`, `mistral`, ...). */
  readonly source: string;
  readonly model: string;
  complete(
    prompt: { system: string; user: string },
    image: FigureImage,
    signal: AbortSignal,
  ): Promise<ModelAnswer>;
}

/** MIME types every supported vision API reads. */
export const VISION_MIME_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
]);

/** `data:<mime>;base64,...`, how both APIs take an inline image. */
export function dataUrl(image: FigureImage): string {
  return `data:${image.mime_type};base64,${image.bytes.toString('base64')}`;
}
