export * from './embedding/embedder.js';
export * from './embedding/localEmbedder.js';
export * from './ocr/ocr.js';
