import { PDFDocument } from 'pdf-lib';
import { startFakeServer, type FakeServer, type RecordedRequest } from './server.js';
import { tinyPng } from './png.js';

/** Paths of the Mistral API the fake answers. */
export const MISTRAL_OCR_PATH = '/v1/ocr';
export const MISTRAL_CHAT_PATH = '/v1/chat/completions';

/** One image of a fake OCR page. `annotation: null` means the model gave none. */
export interface FakeOcrImage {
  id: string;
  png?: Buffer;
  annotation?: Record<string, unknown> | null;
  bbox?: [number, number, number, number];
}

export interface FakeOcrPage {
  markdown: string;
  images: FakeOcrImage[];
}

/** What the fake saw of one OCR request's document. */
export interface FakeOcrDocument {
  kind: 'pdf' | 'image';
  bytes: Buffer;
  mimeType: string;
  pageCount: number;
  annotationsRequested: boolean;
}

export interface FakeMistralOptions {
  /** The pages of one OCR answer; by default one per PDF page (one for an image), each with a heading, text and one image. */
  ocrPages?(doc: FakeOcrDocument): FakeOcrPage[];
  /** The assistant message content of a chat completion (by default a rich annotation as JSON). */
  chatContent?(request: RecordedRequest): string;
}

/** A rich annotation, as Mistral's bbox annotation returns it for a clear photo. */
export const RICH_ANNOTATION = {
  image_type: 'photo',
  summary:
    'Rear elevation of a two-storey brick house with a slate roof, a cast iron gutter and a white timber sash window.',
  entities: ['slate roof', 'cast iron gutter', 'sash window', 'brick wall'],
};

function decodeDataUrl(url: string): { mimeType: string; bytes: Buffer } {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!match) throw new Error(`not a base64 data URL: ${url.slice(0, 40)}`);
  return { mimeType: match[1]!, bytes: Buffer.from(match[2]!, 'base64') };
}

async function documentOf(body: Record<string, unknown>): Promise<FakeOcrDocument> {
  const doc = body.document as Record<string, unknown>;
  const annotationsRequested = body.bbox_annotation_format != null;
  if (doc.type === 'document_url') {
    const { mimeType, bytes } = decodeDataUrl(String(doc.document_url));
    let pageCount = 1;
    try {
      pageCount = (await PDFDocument.load(bytes, { ignoreEncryption: true })).getPageCount();
    } catch {
      pageCount = 1;
    }
    return { kind: 'pdf', bytes, mimeType, pageCount, annotationsRequested };
  }
  const imageUrl = doc.image_url;
  const url = typeof imageUrl === 'string' ? imageUrl : String((imageUrl as { url: string }).url);
  const { mimeType, bytes } = decodeDataUrl(url);
  return { kind: 'image', bytes, mimeType, pageCount: 1, annotationsRequested };
}

/** One page per PDF page: a heading, a paragraph and one photo. */
export function defaultOcrPages(doc: FakeOcrDocument): FakeOcrPage[] {
  return Array.from({ length: doc.pageCount }, (_, i) => ({
    markdown: `# Page ${i + 1} findings\n\nText read from page ${i + 1}: the roof covering is natural slate and the gutters are cast iron.\n\n![img-${i}.png](img-${i}.png)\n`,
    images: [{ id: `img-${i}.png`, annotation: RICH_ANNOTATION }],
  }));
}

async function ocrAnswer(request: RecordedRequest, opts: FakeMistralOptions): Promise<unknown> {
  const body = request.body as Record<string, unknown>;
  const doc = await documentOf(body);
  const pages = (opts.ocrPages ?? defaultOcrPages)(doc);
  const wanted = Array.isArray(body.pages) ? (body.pages as number[]) : null;
  const chosen = pages
    .map((page, index) => ({ page, index }))
    .filter(({ index }) => !wanted || wanted.includes(index));
  return {
    pages: chosen.map(({ page, index }) => ({
      index,
      markdown: page.markdown,
      images: page.images.map((image, j) => {
        const [x1, y1, x2, y2] = image.bbox ?? [100, 200 + j * 300, 900, 700 + j * 300];
        return {
          id: image.id,
          top_left_x: x1,
          top_left_y: y1,
          bottom_right_x: x2,
          bottom_right_y: y2,
          image_base64:
            body.include_image_base64 === true
              ? `data:image/png;base64,${(image.png ?? tinyPng()).toString('base64')}`
              : null,
          image_annotation:
            doc.annotationsRequested && image.annotation ? JSON.stringify(image.annotation) : null,
        };
      }),
      dimensions: { dpi: 200, height: 2339, width: 1654 },
    })),
    model: 'mistral-ocr-2505',
    document_annotation: null,
    usage_info: { pages_processed: chosen.length, doc_size_bytes: doc.bytes.length },
  };
}

/** A chat completion as Mistral's API returns it. */
export function mistralChatCompletion(content: string, model = 'mistral-small-2506'): unknown {
  return {
    id: `cmpl-${Math.random().toString(16).slice(2)}`,
    object: 'chat.completion',
    model,
    created: Math.floor(Date.now() / 1000),
    usage: { prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280 },
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, tool_calls: null },
        finish_reason: 'stop',
      },
    ],
  };
}

/**
 * A local server speaking Mistral's OCR (`POST /v1/ocr`) and chat
 * (`POST /v1/chat/completions`) APIs, for the SDK pointed at it with `serverURL`.
 * `script()` makes the next requests fail (429, 5xx, hang, malformed body).
 */
export async function startFakeMistral(opts: FakeMistralOptions = {}): Promise<FakeServer> {
  return startFakeServer([
    { method: 'POST', path: MISTRAL_OCR_PATH, success: (request) => ocrAnswer(request, opts) },
    {
      method: 'POST',
      path: MISTRAL_CHAT_PATH,
      success: (request) =>
        mistralChatCompletion(
          opts.chatContent ? opts.chatContent(request) : JSON.stringify(RICH_ANNOTATION),
          String((request.body as { model?: string } | null)?.model ?? 'mistral-small-latest'),
        ),
    },
  ]);
}
