import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { annotationQualityScore, type EventOf } from '@reports/contracts';
import { createObjectStore, newEvent, type ObjectStore, type StageResult } from '@reports/platform';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import {
  MISTRAL_CHAT_PATH,
  OPENAI_CHAT_PATH,
  RICH_ANNOTATION,
  mistralChatCompletion,
  openAiChatCompletion,
  startFakeMistral,
  startFakeOpenAi,
  tinyPng,
  type FakeServer,
} from '@reports/test-support';
import { annotateStage } from '../src/annotate/annotateStage.js';
import { MistralVision, OpenAiVision } from '@reports/providers';
import type { VisionModel } from '../src/models/annotator.js';

let db: TestDatabase;
let store: ObjectStore;
let dir: string;
let openai: FakeServer;
let mistral: FakeServer;
const tenant = randomUUID();
const png = tinyPng(40, 30);

function ctx(lastAttempt = false) {
  return {
    deliveryCount: lastAttempt ? 5 : 1,
    lastAttempt,
    signal: new AbortController().signal,
    seq: 1,
    logger: pino({ level: 'silent' }),
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'annotation-objects-'));
  store = createObjectStore({ url: `file://${dir}` });
  await store.ensureReady();
  await db.pool.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, 't', 'personal')`, [
    tenant,
  ]);
  openai = await startFakeOpenAi();
  mistral = await startFakeMistral();
});
afterAll(async () => {
  await openai?.close();
  await mistral?.close();
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  openai.reset();
  mistral.reset();
  openai.requests.length = 0;
  mistral.requests.length = 0;
});

const openAiModel = (model = 'gpt-4o-mini', source = 'openai') =>
  new OpenAiVision({
    apiKey: 'sk-test',
    baseURL: `${openai.url}/v1`,
    model,
    source,
    timeoutMs: 10_000,
    maxRetries: 2,
  });
const mistralModel = () =>
  new MistralVision({
    apiKey: 'mistral-test',
    serverURL: mistral.url,
    model: 'mistral-small-latest',
    timeoutMs: 10_000,
    retry: { initialIntervalMs: 10, maxIntervalMs: 50, maxElapsedMs: 2000 },
  });

interface FigureRow {
  id: string;
  annotation_source: string;
  annotation_json: Record<string, unknown> | null;
  annotation_quality_score: number | null;
}

/** A report with figures as the parse stage leaves them: stored images, `pending` annotations. */
async function givenReportWithFigures(
  figures: Array<{ mime?: string; source?: string; bytes?: Buffer }>,
): Promise<{ reportId: string; figureIds: string[] }> {
  const reportId = randomUUID();
  await db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1, $2, 'r.pdf', 'application/pdf', 'pdf', 1, $3, 'k')`,
    [reportId, tenant, 'a'.repeat(64)],
  );
  const figureIds: string[] = [];
  for (const [i, f] of figures.entries()) {
    const id = randomUUID();
    const key = `tenants/${tenant}/reports/${reportId}/figures/${id}.png`;
    await store.put(key, f.bytes ?? png, { contentType: f.mime ?? 'image/png' });
    await db.pool.query(
      `INSERT INTO figures (id, tenant_id, report_id, target_id, section_name, page_number, order_in_doc,
         object_key, mime_type, width, height, ocr_text, annotation_source)
       VALUES ($1, $2, $3, $3, 'Roof', 2, $4, $5, $6, 40, 30, 'SLATE ROOF - REAR', $7)`,
      [id, tenant, reportId, i, key, f.mime ?? 'image/png', f.source ?? 'pending'],
    );
    figureIds.push(id);
  }
  return { reportId, figureIds };
}

async function figuresOf(reportId: string): Promise<FigureRow[]> {
  const { rows } = await db.pool.query<FigureRow>(
    `SELECT id, annotation_source, annotation_json, annotation_quality_score FROM figures
      WHERE report_id = $1 ORDER BY order_in_doc`,
    [reportId],
  );
  return rows;
}

const parsed = (reportId: string) =>
  newEvent(
    'ReportParsed',
    {
      tenant_id: tenant,
      report_id: reportId,
      target_kind: 'report',
      target_id: reportId,
      generation: 1,
      correlation_id: reportId,
      causation_id: null,
    },
    { sections: 1, figures: 1, tables: 0, pages: 2, cost_cents: 0 },
  );

async function annotate(
  reportId: string,
  model: VisionModel | null,
  lastAttempt = false,
): Promise<StageResult> {
  return annotateStage({ pool: db.pool, objectStore: store, model, concurrency: 2 }).run(
    parsed(reportId),
    ctx(lastAttempt),
  );
}

function annotatedData(result: StageResult): EventOf<'FiguresAnnotated'>['data'] {
  if (result.outcome !== 'done' || result.emit.type !== 'FiguresAnnotated')
    throw new Error(`not annotated: ${JSON.stringify(result)}`);
  return result.emit.data;
}

describe('the annotate stage with an OpenAI-compatible vision model', () => {
  it('annotates pending figures with the model, scores them and records the cost', async () => {
    const { reportId } = await givenReportWithFigures([{}, {}, { source: 'mistral' }]);
    const result = await annotate(reportId, openAiModel());
    expect(annotatedData(result)).toEqual({ figures: 3, annotated: 2, cost_cents: 1 });
    expect(result.outcome === 'done' && result.usage).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
      cost_cents: 1,
      units: { model_figures: 2, local_figures: 0, input_tokens: 2000, output_tokens: 200 },
    });
    const rows = await figuresOf(reportId);
    expect(rows.map((r) => r.annotation_source)).toEqual(['openai', 'openai', 'mistral']);
    expect(rows[0]!.annotation_json).toEqual(RICH_ANNOTATION);
    expect(rows[0]!.annotation_quality_score).toBeCloseTo(
      annotationQualityScore(RICH_ANNOTATION),
      5,
    );
  });

  it('sends the image as a data URL with the figure context and asks for a JSON object', async () => {
    const { reportId } = await givenReportWithFigures([{}]);
    await annotate(reportId, openAiModel());
    const request = openai.requests[0]!;
    expect(request.headers.authorization).toBe('Bearer sk-test');
    const body = request.body as {
      model: string;
      response_format: unknown;
      messages: Array<{ role: string; content: unknown }>;
    };
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.response_format).toEqual({ type: 'json_object' });
    const user = body.messages[1]!.content as Array<Record<string, unknown>>;
    expect(user[0]!.text).toContain('section "Roof"');
    expect(user[0]!.text).toContain('SLATE ROOF - REAR');
    expect(user[1]).toEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
    });
  });

  it('writes the configured source name, e.g. gemini for Google’s endpoint', async () => {
    const { reportId } = await givenReportWithFigures([{}]);
    await annotate(reportId, openAiModel('gemini-2.5-flash', 'gemini'));
    expect((await figuresOf(reportId))[0]!.annotation_source).toBe('gemini');
  });

  it('retries a 429 with backoff and then annotates', async () => {
    openai.script(OPENAI_CHAT_PATH, {
      kind: 'status',
      status: 429,
      headers: { 'retry-after-ms': '10' },
      body: { error: { message: 'Rate limit reached', type: 'requests' } },
    });
    const { reportId } = await givenReportWithFigures([{}]);
    expect(annotatedData(await annotate(reportId, openAiModel())).annotated).toBe(1);
    expect(openai.requests).toHaveLength(2);
    expect((await figuresOf(reportId))[0]!.annotation_source).toBe('openai');
  });

  it('keeps the figure pending and asks for a retry while the endpoint answers 500', async () => {
    openai.rule(OPENAI_CHAT_PATH, () => true, {
      kind: 'status',
      status: 500,
      headers: { 'retry-after-ms': '10' },
    });
    const { reportId } = await givenReportWithFigures([{}]);
    const result = await annotate(reportId, openAiModel());
    expect(result).toMatchObject({ outcome: 'retry', reason: expect.stringMatching(/500/) });
    expect(openai.requests).toHaveLength(3); // the first call and the SDK's two retries
    expect((await figuresOf(reportId))[0]!.annotation_source).toBe('pending');
  });

  it('gives the figure the local heuristic on the last attempt, and the report goes on', async () => {
    openai.rule(OPENAI_CHAT_PATH, () => true, {
      kind: 'status',
      status: 503,
      headers: { 'retry-after-ms': '10' },
    });
    const { reportId } = await givenReportWithFigures([{}]);
    expect(annotatedData(await annotate(reportId, openAiModel(), true)).annotated).toBe(1);
    const [row] = await figuresOf(reportId);
    expect(row!.annotation_source).toBe('local');
    expect(row!.annotation_json).toMatchObject({ heuristic: true });
  });

  it('asks again once after malformed JSON content, and uses the second answer', async () => {
    openai.script(OPENAI_CHAT_PATH, {
      kind: 'json',
      body: openAiChatCompletion('Sure! Here is the annotation: {"image_type": "photo"'),
    });
    const { reportId } = await givenReportWithFigures([{}]);
    const result = await annotate(reportId, openAiModel());
    expect(annotatedData(result).annotated).toBe(1);
    expect(openai.requests).toHaveLength(2);
    expect(result.outcome === 'done' && result.usage?.units?.malformed_answers).toBe(1);
    expect((await figuresOf(reportId))[0]!.annotation_source).toBe('openai');
  });

  it('keeps the local heuristic after two malformed answers without failing the report', async () => {
    openai.script(
      OPENAI_CHAT_PATH,
      { kind: 'json', body: openAiChatCompletion('{"summary": "no type", "entities": []}') },
      { kind: 'raw', body: '<html><body>502 Bad Gateway</body></html>', contentType: 'text/html' },
    );
    const { reportId } = await givenReportWithFigures([{}]);
    const result = await annotate(reportId, openAiModel());
    expect(annotatedData(result)).toMatchObject({ figures: 1, annotated: 1 });
    expect(openai.requests).toHaveLength(2);
    const [row] = await figuresOf(reportId);
    expect(row!.annotation_source).toBe('local');
    expect(row!.annotation_quality_score).toBeLessThan(0.5);
  });

  it('gives an image the model cannot read the local heuristic without calling it', async () => {
    const { reportId } = await givenReportWithFigures([
      { mime: 'image/x-emf', bytes: Buffer.from('not an image') },
    ]);
    await annotate(reportId, openAiModel());
    expect(openai.requests).toHaveLength(0);
    expect((await figuresOf(reportId))[0]!.annotation_source).toBe('local');
  });

  it('reports the cost of every attempt of the generation in FiguresAnnotated', async () => {
    const { reportId } = await givenReportWithFigures([{}]);
    await db.pool.query(
      `INSERT INTO stage_runs (id, tenant_id, report_id, target_kind, target_id, stage, generation, attempt,
         outcome, started_at, finished_at, duration_ms, cost_cents)
       VALUES ($1, $2, $3, 'report', $3, 'annotate', 1, 1, 'retry', now(), now(), 5, 4)`,
      [randomUUID(), tenant, reportId],
    );
    expect(annotatedData(await annotate(reportId, openAiModel())).cost_cents).toBe(4 + 1);
  });
});

describe('the annotate stage with a Mistral vision model', () => {
  it('annotates with a chat call carrying an image_url part and writes source mistral', async () => {
    const { reportId } = await givenReportWithFigures([{}]);
    const result = await annotate(reportId, mistralModel());
    expect(annotatedData(result)).toMatchObject({ figures: 1, annotated: 1 });
    const body = mistral.requests[0]!.body as {
      model: string;
      response_format: unknown;
      messages: Array<{ content: unknown }>;
    };
    expect(mistral.requests[0]!.path).toBe(MISTRAL_CHAT_PATH);
    expect(body.model).toBe('mistral-small-latest');
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect((body.messages[1]!.content as unknown[])[1]).toEqual({
      type: 'image_url',
      image_url: `data:image/png;base64,${png.toString('base64')}`,
    });
    const [row] = await figuresOf(reportId);
    expect(row!.annotation_source).toBe('mistral');
    expect(row!.annotation_json).toEqual(RICH_ANNOTATION);
  });

  it('retries a 429 and then annotates', async () => {
    mistral.script(MISTRAL_CHAT_PATH, { kind: 'status', status: 429 });
    const { reportId } = await givenReportWithFigures([{}]);
    await annotate(reportId, mistralModel());
    expect(mistral.requests).toHaveLength(2);
    expect((await figuresOf(reportId))[0]!.annotation_source).toBe('mistral');
  });

  it('asks for a retry of the stage while Mistral answers 500', async () => {
    mistral.rule(MISTRAL_CHAT_PATH, () => true, { kind: 'status', status: 500 });
    const { reportId } = await givenReportWithFigures([{}]);
    expect((await annotate(reportId, mistralModel())).outcome).toBe('retry');
    expect((await figuresOf(reportId))[0]!.annotation_source).toBe('pending');
  });

  it('falls back to the local heuristic after malformed JSON content twice', async () => {
    mistral.script(
      MISTRAL_CHAT_PATH,
      { kind: 'json', body: mistralChatCompletion('```json\n{"image_type": 3}\n```') },
      { kind: 'json', body: mistralChatCompletion('I cannot see the image.') },
    );
    const { reportId } = await givenReportWithFigures([{}]);
    expect((await annotate(reportId, mistralModel())).outcome).toBe('done');
    expect((await figuresOf(reportId))[0]!.annotation_source).toBe('local');
  });

  it('accepts an answer wrapped in a ```json fence', async () => {
    mistral.script(MISTRAL_CHAT_PATH, {
      kind: 'json',
      body: mistralChatCompletion(`\`\`\`json\n${JSON.stringify(RICH_ANNOTATION)}\n\`\`\``),
    });
    const { reportId } = await givenReportWithFigures([{}]);
    await annotate(reportId, mistralModel());
    expect((await figuresOf(reportId))[0]!.annotation_source).toBe('mistral');
  });
});

describe('the annotate stage without a model', () => {
  it('gives every pending figure the honest local heuristic at no cost', async () => {
    const { reportId } = await givenReportWithFigures([{}, {}]);
    const result = await annotate(reportId, null);
    expect(annotatedData(result)).toEqual({ figures: 2, annotated: 2, cost_cents: 0 });
    const rows = await figuresOf(reportId);
    expect(rows.every((r) => r.annotation_source === 'local')).toBe(true);
    expect(rows[0]!.annotation_json).toMatchObject({ image_type: 'photo', heuristic: true });
  });

  it('skips a deleted report', async () => {
    expect((await annotate(randomUUID(), null)).outcome).toBe('skipped');
  });
});

describe('the annotate stage run again for a generation it already annotated', () => {
  it('writes nothing, asks no model, and announces the committed annotation again', async () => {
    const { reportId } = await givenReportWithFigures([{}, {}]);
    const first = await annotate(reportId, null);
    const before = await figuresOf(reportId);
    // A figure left pending by anything else after the commit stays untouched by a rerun.
    await db.pool.query(`UPDATE figures SET annotation_source = 'pending' WHERE id = $1`, [
      before[0]!.id,
    ]);
    const again = await annotate(reportId, openAiModel());
    expect(annotatedData(again)).toEqual(annotatedData(first));
    expect(openai.requests).toHaveLength(0);
    expect((await figuresOf(reportId))[0]!.annotation_source).toBe('pending');
  });
});
