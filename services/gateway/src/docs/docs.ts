import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);

/** The OpenAPI document, generated from the zod schemas of the routes. */
export const OPENAPI_INFO = {
  title: 'Property report ingestion, retrieval and chat',
  version: '0.1.0',
  description:
    'Multi-tenant service that turns property reports into sections, figures, tables and searchable chunks. ' +
    "Errors answer `{ code, detail }`. JWT endpoints are scoped to the caller's effective tenant; anything outside it answers 404.",
};

const REDOC_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="/openapi.json"></redoc><script src="/redoc/redoc.standalone.js"></script></body></html>`;

async function docs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: OPENAPI_INFO,
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          adminHash: { type: 'apiKey', in: 'header', name: 'X-Admin-Hash' },
          partnerSignature: { type: 'apiKey', in: 'header', name: 'X-Partner-Signature' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.get('/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, () =>
    app.swagger(),
  );

  // Redoc is served from the npm package, so the reference works offline.
  const redocBundle = require.resolve('redoc/bundles/redoc.standalone.js');
  app.get('/redoc', { schema: { hide: true }, config: { rateLimit: false } }, (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(REDOC_HTML),
  );
  app.get(
    '/redoc/redoc.standalone.js',
    { schema: { hide: true }, config: { rateLimit: false } },
    async (_req, reply) =>
      reply
        .type('application/javascript')
        .header('cache-control', 'public, max-age=86400')
        .send(await readFile(redocBundle)),
  );
}

export const docsPlugin = fp(docs, { name: 'docs' });
