/** The gateway's error codes and statuses, in words a person can act on. Pure. */
export function errorWords(status: number, code: string, detail: string): string {
  switch (code) {
    case 'empty_file':
      return 'The file is empty. Choose a file with content.';
    case 'file_too_large':
      return 'The file is larger than 50 MB. Choose a smaller file.';
    case 'unsupported_media_type':
      return 'This kind of file is not supported. Upload a PDF, PNG, JPEG, WEBP, HTML, MHTML or DOCX file.';
    case 'ocr_unavailable':
      return 'Reading scanned documents is not available right now. Try an HTML or DOCX file, or try again later.';
    case 'rate_limited':
      return 'Too many requests in a short time. Wait a minute and try again.';
    case 'partner_jwt_disabled':
      return 'Partner sign-in is not set up on this server.';
    case 'attachment_immutable':
      return 'Attachments from a partner cannot be deleted.';
    case 'unknown_model':
      return 'This model is not available. Choose another one.';
    case 'model_error':
      return 'The model failed while answering. Try again.';
    case 'chat_interrupted':
      return 'The chat stopped answering. Try again.';
    case 'ingestion_failed':
      return 'The report could not be processed.';
    case 'missing_file':
      return 'Choose a file to upload.';
    default:
      break;
  }
  switch (status) {
    case 0:
      return 'The server cannot be reached. Check your connection and try again.';
    case 401:
      return 'Your session has expired. Sign in again.';
    case 403:
      return 'You are not allowed to do this.';
    case 404:
      return 'This was not found. It may have been deleted, or it belongs to someone else.';
    case 409:
      return 'This is not possible in its current state.';
    case 413:
      return 'The file is larger than 50 MB. Choose a smaller file.';
    case 415:
      return 'This kind of file is not supported. Upload a PDF, PNG, JPEG, WEBP, HTML, MHTML or DOCX file.';
    case 422:
    case 400:
      return detail ? `The request was not accepted: ${detail}.` : 'The request was not accepted.';
    case 429:
      return 'Too many requests in a short time. Wait a minute and try again.';
    case 501:
      return 'This is not available yet.';
    case 503:
      return 'A service this needs is unavailable right now. Try again later.';
    default:
      return 'Something went wrong on the server. Try again in a moment.';
  }
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB'];
export function formatSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${SIZE_UNITS[unit]}`;
}

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export const STATUS_WORDS: Record<string, string> = {
  uploaded: 'Uploaded',
  scanned: 'Scanning',
  parsed: 'Parsed',
  annotated: 'Figures described',
  embedding: 'Indexing',
  ready: 'Ready',
  failed: 'Failed',
};
