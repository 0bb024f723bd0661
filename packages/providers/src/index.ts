export * from './embedding/embedder.js';
export * from './embedding/localEmbedder.js';
export * from './ocr/ocr.js';
export * from './ocr/ocrError.js';
export * from './ocr/mistralOcr.js';
export * from './ocr/localOcrEngine.js';
export * from './ocr/tesseractMarkdown.js';
