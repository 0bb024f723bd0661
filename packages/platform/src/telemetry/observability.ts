export * from './tracing.js';
export * from './logContext.js';
export * from './metrics.js';
export * from './providerCalls.js';
export * from './opsServer.js';
export * from './consumerSampler.js';
