import { z } from 'zod';
import { ErrorBody } from '@reports/contracts';

/**
 * `hash` is the spec's fallback for the admin hash when the X-Admin-Hash header
 * is absent. The guard reads it before validation; it is listed for the docs.
 */
export const HashQuery = z.object({
  hash: z.string().optional().describe('The admin hash, when the X-Admin-Hash header is absent'),
});

export const security = [{ adminHash: [] }];
export const TAGS = ['admin'];
export const errors = { 403: ErrorBody, 422: ErrorBody, 429: ErrorBody, 503: ErrorBody };

/** A query without the `hash` fallback, as the admin service takes it. */
export const withoutHash = <T extends { hash?: string | undefined }>({ hash: _h, ...rest }: T) =>
  rest;
