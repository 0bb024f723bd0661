import { z } from 'zod';
import { AppError } from '@reports/contracts';

/** The signature header every partner route reads (checked by the route, not the schema). */
export const signatureHeader = z.object({ 'x-partner-signature': z.string().optional() }).loose();

/** The OpenAPI security requirement of the partner routes. */
export const partnerSecurity = [{ partnerSignature: [] }];

/** PARTNER_HMAC_SECRET, or 503 `partner_hmac_disabled` when it is unset. */
export function configuredSecret(secret: string | undefined): string {
  if (!secret) throw new AppError('partner_hmac_disabled');
  return secret;
}
