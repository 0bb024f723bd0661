import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * The server-sent events of a response body, parsed by eventsource-parser (multi-line `data:`,
 * CRLF, comments and `id:` as the spec says). `onText` sees each decoded piece as it arrives.
 */
export async function* sseMessages(
  body: AsyncIterable<Uint8Array>,
  onText?: (text: string) => void,
): AsyncGenerator<EventSourceMessage> {
  const decoder = new TextDecoder();
  const ready: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => ready.push(message) });
  for await (const piece of body) {
    const text = decoder.decode(piece, { stream: true });
    onText?.(text);
    parser.feed(text);
    while (ready.length > 0) yield ready.shift()!;
  }
}
