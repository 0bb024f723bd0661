export * from './database.js';
export * from './nats.js';
export * from './s3rver.js';
export * from './fixtures/index.js';
export * from './fakes/index.js';
export * from './redis.js';
