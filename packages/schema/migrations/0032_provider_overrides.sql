-- Per-tenant LLM provider overrides, set in the admin area and read by the chat.
-- The API key is stored only sealed (AES-256-GCM, key SECRETS_KEY, the row's
-- tenant_id and provider_id as associated data); it is never returned.
CREATE TABLE provider_overrides (
  tenant_id          uuid NOT NULL,
  provider_id        text NOT NULL CHECK (provider_id ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
  provider           text NOT NULL CHECK (provider IN ('openai', 'mistral', 'local')),
  model              text NOT NULL,
  base_url           text,
  api_key_encrypted  text,
  enabled            boolean NOT NULL DEFAULT true,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, provider_id)
);
