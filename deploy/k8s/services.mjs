// What Kubernetes needs to know about each service beyond its folder under services/.
// A service missing here gets the defaults: a NATS worker with the operations port,
// scaled on CPU. Add an entry when a service listens for HTTP or consumes a stream.

/** @typedef {{ http?: number, durables?: string[], replicas?: { min: number, max: number }, resources?: { cpu: string, memory: string, cpuLimit: string, memoryLimit: string }, egress?: boolean }} ServiceSpec */

/** @type {Record<string, ServiceSpec>} */
export const SERVICES = {
  gateway: {
    http: 8080,
    replicas: { min: 2, max: 10 },
    resources: { cpu: '250m', memory: '256Mi', cpuLimit: '1', memoryLimit: '512Mi' },
  },
  web: {
    // The web app: pages, sign-in cookies; it calls the gateway only (no NATS, no database).
    http: 3000,
    replicas: { min: 2, max: 6 },
  },
  ingestion: {
    // Scan, parse and finalize, and the status projection.
    durables: ['stage-scan', 'stage-parse', 'stage-finalize', 'projection-status'],
    replicas: { min: 1, max: 8 },
    // pdf.js parses on the main thread: a 300-page PDF takes a core for seconds.
    resources: { cpu: '500m', memory: '512Mi', cpuLimit: '2', memoryLimit: '1536Mi' },
    egress: true,
  },
  annotation: {
    durables: ['stage-annotate'],
    replicas: { min: 1, max: 6 },
    resources: { cpu: '250m', memory: '384Mi', cpuLimit: '1', memoryLimit: '768Mi' },
    egress: true,
  },
  embedding: {
    durables: ['stage-embed'],
    replicas: { min: 1, max: 6 },
    resources: { cpu: '250m', memory: '384Mi', cpuLimit: '1', memoryLimit: '768Mi' },
    egress: true,
  },
  retrieval: {
    // Holds queried report folders in memory (RETRIEVAL_MEMORY_BUDGET_MB, 256 in config.yaml).
    resources: { cpu: '250m', memory: '512Mi', cpuLimit: '2', memoryLimit: '1Gi' },
  },
  chat: {
    // Streams answers from remote model APIs (egress); a turn is mostly waiting on the model.
    replicas: { min: 2, max: 8 },
    egress: true,
  },
};

/** @type {Required<Pick<ServiceSpec, 'replicas' | 'resources'>>} */
export const DEFAULTS = {
  replicas: { min: 1, max: 4 },
  resources: { cpu: '200m', memory: '256Mi', cpuLimit: '1', memoryLimit: '512Mi' },
};

/** Secrets every service may read, as environment variable -> key of Secret reports-secrets. */
export const SECRET_ENV = [
  'ADMIN_HASH',
  'PARTNER_HMAC_SECRET',
  'FILE_URL_SECRET',
  'SECRETS_KEY',
  'OPENAI_API_KEY',
  'MISTRAL_API_KEY',
  'RERANK_API_KEY',
];
