import {
  AppError,
  providerApiKeyContext,
  type ProviderListQuery,
  type ProviderOverride,
  type ProviderOverrideList,
  type ProviderPutRequest,
} from '@reports/contracts';
import { withTransaction, type Pool, type SecretBox } from '@reports/platform';

interface OverrideRow {
  tenant_id: string;
  provider_id: string;
  provider: ProviderOverride['provider'];
  model: string;
  base_url: string | null;
  enabled: boolean;
  has_api_key: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `tenant_id, provider_id, provider, model, base_url, enabled,
  api_key_encrypted IS NOT NULL AS has_api_key, created_at, updated_at`;

function toOverride(row: OverrideRow): ProviderOverride {
  return {
    ...row,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Every override (or one tenant's), without any key material. */
export async function listProviders(
  pool: Pool,
  q: ProviderListQuery,
): Promise<ProviderOverrideList> {
  const { rows } = await pool.query<OverrideRow>(
    `SELECT ${COLUMNS} FROM provider_overrides
      WHERE ($1::uuid IS NULL OR tenant_id = $1)
      ORDER BY tenant_id, provider_id`,
    [q.tenant_id ?? null],
  );
  return rows.map(toOverride);
}

/**
 * Creates or replaces the override of (tenant, provider id). A new API key is
 * sealed before it touches the database; without SECRETS_KEY it is refused (503)
 * rather than stored in the clear. `api_key` absent keeps the stored key, null
 * removes it.
 */
export async function putProvider(
  pool: Pool,
  secrets: SecretBox | null,
  req: ProviderPutRequest,
): Promise<ProviderOverride> {
  let sealed: string | null | undefined;
  if (typeof req.api_key === 'string') {
    if (!secrets) throw new AppError('secrets_unavailable');
    sealed = secrets.seal(req.api_key, providerApiKeyContext(req.tenant_id, req.provider_id));
  } else {
    sealed = req.api_key; // null: remove, undefined: keep
  }
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<OverrideRow>(
      `INSERT INTO provider_overrides (tenant_id, provider_id, provider, model, base_url, api_key_encrypted, enabled)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (tenant_id, provider_id) DO UPDATE
         SET provider = EXCLUDED.provider,
             model = EXCLUDED.model,
             base_url = EXCLUDED.base_url,
             api_key_encrypted = CASE WHEN $8 THEN provider_overrides.api_key_encrypted
                                      ELSE EXCLUDED.api_key_encrypted END,
             enabled = EXCLUDED.enabled,
             updated_at = now()
       RETURNING ${COLUMNS}`,
      [
        req.tenant_id,
        req.provider_id,
        req.provider,
        req.model,
        req.base_url ?? null,
        sealed ?? null,
        req.enabled,
        sealed === undefined,
      ],
    );
    const row = rows[0];
    if (!row) throw new Error('provider_overrides upsert returned no row');
    return toOverride(row);
  });
}
