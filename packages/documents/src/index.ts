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
export type {
  FigureDraft,
  OcrFunction,
  ParsedDocument,
  ParseOptions,
  SectionDraft,
  TableDraft,
} from './parse/types.js';
export {
  MAX_IMAGE_PIXELS,
  MIN_FIGURE_PIXELS,
  MIN_FIGURE_SIDE,
  THUMBNAIL_SIZE,
  figureImage,
  isFigureSized,
  makeThumbnail,
  probeImage,
} from './images/image.js';
export type { FigureImage, ImageInfo, Thumbnail } from './images/image.js';
export {
  GARBLED_SHARE,
  SCAN_MAX_CHARS,
  SHIFTED_SHARE,
  judgeTextLayer,
  markdownBlocks,
} from './parse/ocrText.js';
export type { MarkdownBlock, TextLayerVerdict } from './parse/ocrText.js';
export { resolveMhtmlReference } from './parse/mhtml.js';
export type { MhtmlPart } from './parse/mhtml.js';
export { bareExtract, parseDocument } from './parse/index.js';
export { splitLegacyText } from './legacy/headingSplit.js';
export type { LegacySection } from './legacy/headingSplit.js';
export { pickSectionBy } from './sectionName.js';
export type { NamedSection } from './sectionName.js';
export {
  documentFromOcr,
  isOcrDocumentKind,
  precheckOcrUpload,
  richAnnotation,
  sectionsFromPages,
} from './parse/ocrDocument.js';
export type {
  OcrDocument,
  OcrDocumentKind,
  OcrDocumentPage,
  OcrDocumentResult,
  OcrFigureAnnotation,
  OcrPageImage,
  OpenSection,
} from './parse/ocrDocument.js';
