import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  ERRORS,
  isAppError,
  type AppError,
  type ErrorBody,
  type ErrorCode,
} from '@reports/contracts';

function body(code: ErrorCode, detail?: string, issues?: ErrorBody['issues']): ErrorBody {
  return { code, detail: detail ?? ERRORS[code].detail, ...(issues ? { issues } : {}) };
}

// Fastify's own client errors, by status, mapped onto the catalogue.
const BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  413: 'file_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/**
 * The one place where errors become HTTP answers: catalogue errors keep their
 * status, request validation is 422 (404 for a malformed id in the path, which
 * names nothing in the caller's scope), and anything unexpected is a logged 500
 * whose body says nothing about internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (isAppError(error)) {
      return reply.status(error.status).send(body(error.code, error.detail));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      if (error.validationContext === 'params') return reply.status(404).send(body('not_found'));
      const issues = error.validation.map((v) => ({
        path: `${error.validationContext ?? 'body'}${v.instancePath.replaceAll('/', '.')}`,
        message: v.message ?? 'invalid',
      }));
      return reply.status(422).send(body('validation_failed', undefined, issues));
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 400 && error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return reply.status(400).send(body('bad_request', 'the request body is not valid JSON'));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // The JSON body limit (1 MiB), not the upload cap: uploads are streamed and answer
      // 413 file_too_large. A JSON body too large is a bad request (400), as issue 6 asks.
      return reply.status(400).send(body('body_too_large'));
    }
    if (status === 400 && error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.status(422).send(body('validation_failed', 'the request body is empty'));
    }
    const code = BY_STATUS[status];
    if (code && status < 500) {
      return reply
        .status(status)
        .send(body(code, code === 'bad_request' ? error.message : undefined));
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ code: 'bad_request', detail: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body('internal'));
  });

  app.setNotFoundHandler((_request, reply) => reply.status(404).send(body('not_found')));
}
