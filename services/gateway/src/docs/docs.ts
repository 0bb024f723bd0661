import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';

/** The OpenAPI document, generated from the zod schemas of the routes. */
export const OPENAPI_INFO = {
  title: 'Property report ingestion, retrieval and chat',
  version: '0.1.0',
  description:
    'Multi-tenant service that turns property reports into sections, figures, tables and searchable chunks. ' +
    "Errors answer `{ code, detail }`. JWT endpoints are scoped to the caller's effective tenant; anything outside it answers 404.",
};

/**
 * `/redoc`: the reference as one read-only page, drawn by the Swagger UI bundle that `/docs`
 * already serves (the redoc package pulled in more than a hundred packages for this one page).
 */
const REFERENCE_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/static/swagger-ui.css"></head>
<body><div id="reference" data-spec-url="/openapi.json"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script src="/redoc/reference.js"></script></body></html>`;

const REFERENCE_JS = `SwaggerUIBundle({
  url: document.getElementById('reference').dataset.specUrl,
  dom_id: '#reference',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  supportedSubmitMethods: [],
});
`;

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

  // The reference page works offline: every asset comes from this gateway.
  app.get('/redoc', { schema: { hide: true }, config: { rateLimit: false } }, (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(REFERENCE_HTML),
  );
  app.get(
    '/redoc/reference.js',
    { schema: { hide: true }, config: { rateLimit: false } },
    (_req, reply) =>
      reply
        .type('application/javascript')
        .header('cache-control', 'public, max-age=86400')
        .send(REFERENCE_JS),
  );
}

export const docsPlugin = fp(docs, { name: 'docs' });
