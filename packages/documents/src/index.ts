export type { DocumentKind } from './kinds.js';
export { DOCUMENT_KINDS } from './kinds.js';
export {
  MIME_BY_KIND,
  SNIFF_BYTES,
  checkUploadKind,
  declaredKind,
  sniffDocumentKind,
} from './sniff.js';
export type { UploadKindCheck } from './sniff.js';
export { DocumentError, isDocumentError } from './errors.js';
export type { DocumentErrorCode } from './errors.js';
export type { ParsedDocument, ParseOptions, SectionDraft, TableDraft } from './parse/types.js';
export { bareExtract, parseDocument } from './parse/index.js';
