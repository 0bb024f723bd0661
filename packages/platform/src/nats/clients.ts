import type { NatsConnection } from '@nats-io/nats-core';
import type { z } from 'zod';
import {
  AdminOps,
  ChatOps,
  RETRIEVE_TIMEOUT_MS,
  RetrievalOps,
  type RpcOperation,
} from '@reports/contracts';
import { requestRpc } from './rpc.js';

/**
 * The typed clients of the request/reply services: one method per operation of the service's
 * contract (`AdminOps`, `ChatOps`, `RetrievalOps` in @reports/contracts), each a `requestRpc`
 * call, so every caller gets the same trace propagation, timeouts and error mapping. See
 * docs/adr/060-one-request-reply-mechanism.md.
 */

type AnyOperation = RpcOperation<z.ZodType, z.ZodType>;

/** One method per operation: the request's input type in, the response's output type out. */
export type RpcClient<Ops extends Record<string, AnyOperation>> = {
  [K in keyof Ops]: (request: z.input<Ops[K]['request']>) => Promise<z.output<Ops[K]['response']>>;
};

/** Builds the client of a table of operations; `service` names it in 503 details. */
export function rpcClient<Ops extends Record<string, AnyOperation>>(
  nc: NatsConnection,
  ops: Ops,
  opts: { service: string; timeoutMs?: number },
): RpcClient<Ops> {
  const client: Partial<Record<keyof Ops, (request: unknown) => Promise<unknown>>> = {};
  for (const name of Object.keys(ops) as (keyof Ops)[]) {
    const op = ops[name]!;
    client[name] = (request) => requestRpc(nc, op, request as z.input<typeof op.request>, opts);
  }
  return client as RpcClient<Ops>;
}

export type AdminClient = RpcClient<typeof AdminOps>;
export type ChatClient = RpcClient<typeof ChatOps>;
export type RetrievalClient = RpcClient<typeof RetrievalOps>;

/** The admin service (`/admin/*` and `/migrate/*` behind the gateway). */
export function adminClient(nc: NatsConnection, timeoutMs?: number): AdminClient {
  return rpcClient(nc, AdminOps, { service: 'admin', timeoutMs });
}

/** The chat service's operations besides the streamed turn (conversations, feedback, models). */
export function chatClient(nc: NatsConnection, timeoutMs?: number): ChatClient {
  return rpcClient(nc, ChatOps, { service: 'chat', timeoutMs });
}

/** The retrieval service; waits `RETRIEVE_TIMEOUT_MS` unless told otherwise. */
export function retrievalClient(
  nc: NatsConnection,
  timeoutMs: number = RETRIEVE_TIMEOUT_MS,
): RetrievalClient {
  return rpcClient(nc, RetrievalOps, { service: 'retrieval', timeoutMs });
}
