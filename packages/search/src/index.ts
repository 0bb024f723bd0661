export * from './keyword/keywordIndex.js';
export * from './keyword/postgresBm25.js';
export * from './keyword/opensearch.js';
export * from './keyword/fromConfig.js';
export * from './vector/vectorLeg.js';
