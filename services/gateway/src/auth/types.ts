import type { FastifyRequest } from 'fastify';
import { AppError } from '@reports/contracts';

/** The caller, derived from a verified JWT (spec: Authenticated user). */
export interface AuthUser {
  id: string;
  email: string | null;
  access_token: string;
  /** Effective tenant: active_tenant_id when present, else personal_tenant_id. */
  tenant_id: string;
  personal_tenant_id: string;
  active_tenant_id: string | null;
  role: string;
  claims: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyInstance {
    /** preHandler: verifies the bearer token and sets request.user, or answers 401. */
    authenticate(request: FastifyRequest): Promise<void>;
  }
}

/** The authenticated caller of a route guarded by `app.authenticate`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('unauthorized');
  return request.user;
}
