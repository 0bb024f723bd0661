-- Users of a partner application who signed in through POST /auth/partner-exchange:
-- one user per (partner issuer, partner subject). The partner's email is kept here and
-- not on user_profiles (whose email is unique and means a mailbox proven by a sign-in
-- link), so a partner token can never take over an account of ours by naming its email.
CREATE TABLE partner_identities (
  issuer        text NOT NULL,
  subject       text NOT NULL,
  user_id       uuid NOT NULL UNIQUE REFERENCES user_profiles (id) ON DELETE CASCADE,
  email         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
