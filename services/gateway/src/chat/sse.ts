import type { ChatStartEvent } from '@reports/contracts';

/**
 * One Server-Sent Event: `event: <name>` and one `data:` line of JSON. JSON encoding
 * keeps the blank lines of markdown inside the string, so they cannot end the event
 * early (spec: "JSON-encoded text chunks"). Pure.
 */
export function sseEvent(name: 'start' | 'chunk' | 'end' | 'error', data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: keeps proxies from closing a quiet stream. */
export const SSE_KEEPALIVE = ': keepalive\n\n';

/** The response headers of a chat stream, from its start event (`X-Retrieval-Log-Id` in rag mode only). Pure. */
export function chatHeaders(start: ChatStartEvent): Record<string, string> {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-conversation-id': start.conversation_id,
    'x-llm-model': start.model,
    'x-chat-mode': start.mode,
    ...(start.mode === 'rag' && start.retrieval_log_id
      ? { 'x-retrieval-log-id': start.retrieval_log_id }
      : {}),
  };
}
