export * from './events.js';
export * from './subjects.js';
export * from './status.js';
export * from './errors.js';
export * from './rest.js';
export * from './figures.js';
export * from './attachments.js';
