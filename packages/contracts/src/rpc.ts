import { z } from 'zod';

/**
 * Reply envelope of every internal request/reply call over NATS: the result,
 * or a catalogue error (`code`, `detail`) the gateway turns into its HTTP answer.
 */
export const RpcReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: z.string(), detail: z.string() }),
  }),
]);
export type RpcReply = z.infer<typeof RpcReply>;

/** One request/reply operation: the subject it is served on and the shapes of both sides. */
export interface RpcOperation<Req extends z.ZodType, Res extends z.ZodType> {
  subject: string;
  request: Req;
  response: Res;
}

/** Declares an operation with its schemas, keeping their types. */
export function rpcOperation<Req extends z.ZodType, Res extends z.ZodType>(
  subject: string,
  request: Req,
  response: Res,
): RpcOperation<Req, Res> {
  return { subject, request, response };
}
