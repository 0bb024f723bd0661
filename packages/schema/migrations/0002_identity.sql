-- Tenants, users and who belongs where.
CREATE TABLE tenants (
  id          uuid PRIMARY KEY,
  name        text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('personal', 'team')),
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_profiles (
  id                  uuid PRIMARY KEY,
  email               text UNIQUE,
  display_name        text NOT NULL,
  personal_tenant_id  uuid NOT NULL REFERENCES tenants (id),
  active_tenant_id    uuid REFERENCES tenants (id),
  created_at          timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  tenant_id   uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  user_id     uuid NOT NULL REFERENCES user_profiles (id) ON DELETE CASCADE,
  role        text NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'member')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

-- Built-in issuer (local use): signing keys, one-time sign-in links, refresh tokens.
-- Secrets are stored as SHA-256 digests only.
CREATE TABLE auth_signing_keys (
  kid          text PRIMARY KEY,
  alg          text NOT NULL CHECK (alg IN ('ES256', 'RS256')),
  private_jwk  jsonb NOT NULL,
  public_jwk   jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE auth_magic_links (
  digest       text PRIMARY KEY,
  email        text NOT NULL,
  expires_at   timestamptz NOT NULL,
  consumed_at  timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE auth_refresh_tokens (
  digest       text PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES user_profiles (id) ON DELETE CASCADE,
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_refresh_tokens_user_idx ON auth_refresh_tokens (user_id);
