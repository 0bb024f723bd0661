import { CHAT_QUEUE } from '@reports/contracts';
import {
  createSecretBox,
  parseSecretsKey,
  retrievalClient,
  type Config,
  type RetrievalClient,
  type ServiceRuntime,
} from '@reports/platform';
import { serveConversationOps } from './conversations/operations.js';
import { serveTurns } from './endpoint/turns.js';
import { ModelRegistry } from './models/registry.js';
import type { TurnDeps } from './turn/turn.js';

/** What a test may replace (with the same real adapters pointed elsewhere). */
export interface ChatOverrides {
  retrieval?: RetrievalClient;
  /** First retry backoff of Mistral's SDK (tests shorten it). */
  initialBackoffMs?: number;
}

/** The turn's adapters from the configuration. */
export function chatDeps(
  rt: Pick<ServiceRuntime, 'config' | 'logger' | 'pool' | 'nats'>,
  overrides: ChatOverrides = {},
): TurnDeps {
  const { config } = rt;
  const key = config.SECRETS_KEY === undefined ? null : parseSecretsKey(config.SECRETS_KEY);
  return {
    pool: rt.pool,
    retrieval: overrides.retrieval ?? retrievalClient(rt.nats.nc),
    models: new ModelRegistry({
      pool: rt.pool,
      settings: config,
      secrets: key ? createSecretBox(key) : null,
      logger: rt.logger,
      maxRetries: config.CHAT_MODEL_MAX_RETRIES,
      ...(overrides.initialBackoffMs ? { initialBackoffMs: overrides.initialBackoffMs } : {}),
    }),
    settings: settingsOf(config),
    logger: rt.logger,
  };
}

export function settingsOf(config: Config): TurnDeps['settings'] {
  return {
    canary: config.CHAT_PROMPT_CANARY ?? null,
    idleTimeoutMs: config.CHAT_MODEL_IDLE_TIMEOUT_MS,
    maxOutputTokens: config.CHAT_MAX_OUTPUT_TOKENS,
    contextMaxChars: config.CHAT_CONTEXT_MAX_CHARS,
  };
}

/**
 * Serves chat turns (streamed to the gateway over NATS) and the conversation, feedback
 * and model operations. Stopping lets turns in progress finish for SHUTDOWN_GRACE_MS,
 * then cancels the rest, whose partial answers are stored.
 */
export async function startChat(
  rt: Pick<ServiceRuntime, 'config' | 'logger' | 'pool' | 'nats'>,
  deps: TurnDeps = chatDeps(rt),
): Promise<() => Promise<void>> {
  for (const warning of deps.models.deployment.warnings) rt.logger.warn(warning);
  const nc = rt.nats.nc;
  const turns = await serveTurns(nc, deps, {
    heartbeatMs: rt.config.CHAT_HEARTBEAT_MS,
    logger: rt.logger,
  });
  const ops = serveConversationOps(nc, deps, CHAT_QUEUE);
  await nc.flush();
  rt.logger.info(
    {
      default_model: deps.models.deployment.defaultId,
      models: deps.models.deployment.models.map((m) => m.id),
      canary: deps.settings.canary !== null,
    },
    'chat endpoint ready',
  );
  return async () => {
    if (turns.active() > 0)
      rt.logger.info({ turns: turns.active() }, 'letting chat turns in progress finish');
    await Promise.all([turns.stop(rt.config.SHUTDOWN_GRACE_MS), ...ops.map((s) => s.stop())]);
  };
}
