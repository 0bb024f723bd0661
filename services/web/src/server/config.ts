import { z } from 'zod';

const origins = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim().replace(/\/+$/, ''))
      .filter(Boolean),
  )
  .refine((list) => !list.includes('*'), 'a wildcard origin is not allowed; list the origins')
  .refine(
    (list) => list.every((o) => /^https?:\/\/[^/\s]+$/.test(o)),
    'each entry is an origin: scheme://host[:port]',
  );

const url = z
  .string()
  .url()
  .transform((v) => v.replace(/\/+$/, ''));

/**
 * The web app's environment (design.md section 6: WEB_PORT, GATEWAY_URL,
 * EMBED_ALLOWED_ORIGINS). GATEWAY_PUBLIC_URL and COOKIE_SECURE are ours (docs/adr/100).
 */
export const WebConfigSchema = z.object({
  WEB_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /** The gateway the web server calls (sign-in, refresh). */
  GATEWAY_URL: url.default('http://127.0.0.1:8080'),
  /** The gateway as the browser reaches it (chat stream, realtime channel); GATEWAY_URL when unset. */
  GATEWAY_PUBLIC_URL: url.optional(),
  EMBED_ALLOWED_ORIGINS: origins,
  /** `1`/`0` forces the Secure cookie attribute; unset: Secure except on localhost. */
  COOKIE_SECURE: z.enum(['1', '0']).optional(),
  /** Where the built client is; the build output beside this file by default. */
  WEB_STATIC_DIR: z.string().optional(),
  /** Operations port (`/healthz`, `/readyz`); unset or 0: none. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type WebConfig = z.infer<typeof WebConfigSchema>;

export function loadWebConfig(env: NodeJS.ProcessEnv = process.env): WebConfig {
  const result = WebConfigSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration: ${lines.join('; ')}`);
  }
  return result.data;
}
