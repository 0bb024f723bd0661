/* eslint-disable no-console -- a command-line evaluation: its output is the table it prints. */
// Real-report evaluation (issue 11): `npm run eval -- reports DIR QUESTIONS.json`.
// Every PDF a question names is uploaded from DIR through POST /ingest of the whole running
// system (built services, as the retrieval evaluation starts them) and waited for until `ready`.
// Each question is then asked through POST /retrieve (folder scope, top_k 6) and POST /chat (the
// local default model), and the same run scores a baseline a user could build in an afternoon:
// `pdftotext` one chunk per page, ranked by BM25 (wink-bm25-text-search) over tokens from the same
// Postgres text search parser the keyword leg uses. A system hit is a top-6 chunk whose text matches
// the answer pattern; a baseline hit is a top-6 page whose text matches and that is one of the
// question's judged pages. Also scored: each retrieval leg alone and BM25 over the system's own
// chunks (the ranking question of issue 11 item 4). Writes bench/results/eval-reports-latest.json
// (ranks only: no text of the documents goes into the results).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import bm25 from 'wink-bm25-text-search';
import { connectNats, type Nats, type Pool } from '@reports/platform';
import { type RetrieveOptions } from '@reports/contracts';
import { startSystem, type RunningSystem } from '../test/support/system.js';
import { freshIp, signIn, upload, waitForStatus, type Session } from '../test/support/client.js';
import { chat } from '../test/support/chat.js';
import { mean } from './metrics.js';
import { ROOT, compareRetrievalPaths, git, inPool, retrieveFolder } from './support.js';
import {
  QuestionsFile,
  answerLead,
  citesPage,
  firstHit,
  statesAnswer,
  type ReportQuestion,
} from './reports/questions.js';
import { holdsFurniture, runningLines } from './reports/furniture.js';
import { countPhotos, parseImageList, parsePageAreas, type PhotoCount } from './reports/photos.js';

const RESULTS = path.join(ROOT, 'bench/results');
const TOP_K = 6;
const CONCURRENCY = 3;
const CHAT = process.env.EVAL_CHAT !== '0';
/** `EVAL_SHOW_MISSES=1` prints the heading paths of the top 6 for each question the system misses. */
const SHOW_MISSES = process.env.EVAL_SHOW_MISSES === '1';
/** `EVAL_SHOW_ANSWERS=1` prints each chat answer (for reading; never written to the results). */
const SHOW_ANSWERS = process.env.EVAL_SHOW_ANSWERS === '1';
const DUMP_CHAT = process.env.EVAL_DUMP_CHAT ?? null;
/**
 * `EVAL_DUMP_LEGS=FILE`: every chunk (text, heading path, type) and each question's top 50 of
 * each leg, for measuring a change to one leg offline (document text: keep it outside the
 * repository).
 */
const DUMP_LEGS = process.env.EVAL_DUMP_LEGS ?? null;
/**
 * `RERANK_ENABLED=true` (with or without `RERANK_URL`, `RERANK_API_KEY`): the system runs with
 * that reranker, the chat too; the columns of one leg or one fusion keep the fused order.
 */
const RERANK_ENV: Record<string, string> = Object.fromEntries(
  ['RERANK_ENABLED', 'RERANK_URL', 'RERANK_API_KEY', 'RERANK_MODEL'].flatMap((k) =>
    process.env[k] ? [[k, process.env[k]!]] : [],
  ),
);
/** How deep each leg is dumped: the candidate depth the retrieval service fuses for top_k 6. */
const DUMP_DEPTH = 50;
/** Heading field weights of the BM25-over-chunks reference (0: the chunk text alone). */
const HEADING_WEIGHTS = [0, 1, 2, 3];
/** Keyword-leg weights of the extra hybrid runs (1 is the spec's RRF). */
const KEYWORD_WEIGHTS = [1, 2, 4];
const run = promisify(execFile);

interface Page {
  page: number;
  text: string;
}

/** 1-based rank of the first result that states the answer; 0 when none of the top 6 does. */
interface Outcome {
  rank: number;
}

/** The images each page of a PDF draws, as `pdfimages -list` (poppler) lists them. */
async function imageList(file: string): Promise<string> {
  const { stdout } = await run('pdfimages', ['-list', file], { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** Each page's area in square points, as `pdfinfo` (poppler) gives the page sizes. */
async function pageAreas(file: string): Promise<number[]> {
  const { stdout } = await run('pdfinfo', ['-f', '1', '-l', '100000', file], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return parsePageAreas(stdout);
}

/** The text of each page, as `pdftotext` (poppler) reads it in its default reading order. */
async function pdfPages(file: string): Promise<Page[]> {
  const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-'], {
    maxBuffer: 256 * 1024 * 1024,
  });
  const pages = stdout.split('\f');
  if (pages.at(-1)?.trim() === '') pages.pop();
  return pages.map((text, i) => ({ page: i + 1, text }));
}

/** The tokens Postgres makes of each text (`to_tsvector('simple', immutable_unaccent(text))`), with repeats. */
async function pgTokens(pool: Pool, texts: string[]): Promise<string[][]> {
  const out: string[][] = texts.map(() => []);
  for (let i = 0; i < texts.length; i += 500) {
    const slice = texts.slice(i, i + 500);
    const { rows } = await pool.query<{ ord: string; lexeme: string; n: number }>(
      `SELECT d.ord, u.lexeme, coalesce(array_length(u.positions, 1), 1) AS n
         FROM unnest($1::text[]) WITH ORDINALITY AS d(body, ord)
         CROSS JOIN LATERAL unnest(to_tsvector('simple', immutable_unaccent(d.body))) AS u`,
      [slice],
    );
    for (const r of rows) {
      const list = out[i + Number(r.ord) - 1]!;
      for (let k = 0; k < r.n; k++) list.push(r.lexeme);
    }
  }
  return out;
}

/**
 * BM25 (k1 1.2, b 0.75) over already tokenised documents; returns the ranked indexes. With
 * `heading` tokens, BM25F-style field weights: the heading field counts `headingWeight` times.
 */
function bm25Index(
  docTokens: string[][],
  heading?: { tokens: string[][]; weight: number },
): (queryTokens: string[]) => number[] {
  const engine = bm25();
  engine.defineConfig({
    fldWeights: heading ? { body: 1, heading: heading.weight } : { body: 1 },
    bm25Params: { k1: 1.2, b: 0.75, k: 1 },
  });
  engine.definePrepTasks([(text: string) => text.split(' ').filter(Boolean)]);
  docTokens.forEach((tokens, i) =>
    engine.addDoc(
      {
        body: tokens.join(' ') || '_',
        ...(heading ? { heading: heading.tokens[i]!.join(' ') || '_' } : {}),
      },
      String(i),
    ),
  );
  // The library consolidates no fewer than 3 documents: a short document (or a failed report,
  // which has none) is padded with empty ones, which no query finds.
  if (docTokens.length === 0) return () => [];
  for (let pad = docTokens.length; pad < 3; pad++)
    engine.addDoc(heading ? { body: '_', heading: '_' } : { body: '_' }, `pad${pad}`);
  engine.consolidate(6);
  return (q) =>
    (engine.search(q.join(' '), TOP_K) as Array<[string, number]>)
      .filter(([id]) => !id.startsWith('pad'))
      .map(([id]) => Number(id));
}

function outcome(q: ReportQuestion, texts: string[], accept?: (i: number) => boolean): Outcome {
  return { rank: firstHit(q, texts, accept) };
}

async function retrieveLeg(
  nats: Nats,
  reportId: string,
  query: string,
  legs: RetrieveOptions['legs'],
  contentOf: Map<string, string>,
  keywordWeight?: number,
  wordFamilies?: boolean,
  rerank?: RetrieveOptions['rerank'],
): Promise<string[]> {
  const chunks = await retrieveFolder(
    nats,
    reportId,
    query,
    TOP_K,
    legs,
    keywordWeight,
    wordFamilies,
    rerank,
  );
  return chunks.map((c) => contentOf.get(c.id) ?? c.content);
}

async function main(): Promise<void> {
  const started = Date.now();
  const [dirArg, questionsArg] = process.argv.slice(2);
  if (!dirArg || !questionsArg) {
    console.error('usage: npm run eval -- reports DIR QUESTIONS.json');
    process.exit(2);
  }
  if (DUMP_CHAT) await mkdir(DUMP_CHAT, { recursive: true });
  const base = process.env.INIT_CWD ?? process.cwd();
  const dir = path.resolve(base, dirArg);
  const parsed = QuestionsFile.safeParse(
    JSON.parse(await readFile(path.resolve(base, questionsArg), 'utf8')),
  );
  if (!parsed.success) {
    console.error(`eval: ${questionsArg} is not a questions file: ${parsed.error.message}`);
    process.exit(2);
  }
  const allFiles = [...new Set(parsed.data.questions.map((q) => q.file))];
  const missing = allFiles.filter((f) => !existsSync(path.join(dir, f)));
  // A file that cannot be had any more is left out, loudly, with its questions (EVAL_ALLOW_MISSING=1).
  if (
    missing.length > 0 &&
    (process.env.EVAL_ALLOW_MISSING !== '1' || missing.length === allFiles.length)
  ) {
    console.error(
      `eval: not in ${dir}: ${missing.join(', ')} (EVAL_ALLOW_MISSING=1 leaves them out)`,
    );
    process.exit(2);
  }
  if (missing.length > 0) console.warn(`eval: leaving out ${missing.join(', ')} and its questions`);
  const questions = parsed.data.questions.filter((q) => !missing.includes(q.file));
  const files = allFiles.filter((f) => !missing.includes(f));
  const pagesOf = new Map<string, Page[]>();
  for (const f of files) pagesOf.set(f, await pdfPages(path.join(dir, f)));
  const pageCount = [...pagesOf.values()].reduce((n, p) => n + p.length, 0);
  console.log(`${questions.length} questions on ${files.length} reports (${pageCount} pages)`);

  let system: RunningSystem | undefined;
  let nats: Nats | undefined;
  const stop = async () => {
    await nats?.nc.close().catch(() => undefined);
    await system?.stop().catch(() => undefined);
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    system = await startSystem({
      env: { STAGE_TIMEOUT_MS: '900000', STAGE_ACK_WAIT_MS: '120000', ...RERANK_ENV },
    });
    const session: Session = await signIn(system, 'eval@example.com');
    const as = (s: Session) => ({
      ...s,
      headers: (extra = {}) => s.headers({ 'x-forwarded-for': freshIp(), ...extra }),
    });
    const user = as(session);
    const t0 = Date.now();
    const reportOf = new Map<string, string>();
    for (const f of files) {
      const res = await upload(
        system,
        user,
        { bytes: await readFile(path.join(dir, f)), filename: f, type: 'application/pdf' },
        f.replace(/\.pdf$/i, ''),
      );
      if (res.status !== 202)
        throw new Error(`upload of ${f} answered ${res.status}: ${JSON.stringify(res.body)}`);
      reportOf.set(f, res.body.id);
    }
    // Every report to an end state: one that fails counts as a miss for its questions.
    const failed = new Set<string>();
    await Promise.all(
      [...reportOf.entries()].map(async ([f, id]) => {
        for (;;) {
          const status = await waitForStatus(system!, session, id, 'ready', 5_000).catch(
            () => null,
          );
          if (status) return;
          const { rows: st } = await system!.db.pool.query<{ status: string }>(
            'SELECT status FROM reports WHERE id = $1',
            [id],
          );
          if (st[0]?.status === 'failed') {
            failed.add(f);
            console.log(`${f}: failed (its questions count as misses)`);
            return;
          }
        }
      }),
    );
    const ingestS = (Date.now() - t0) / 1000;
    const { rows } = await system.db.pool.query<{
      id: string;
      report_id: string;
      content: string;
      content_type: string;
      heading_path: string | null;
      embedded: boolean;
    }>(
      // heading_path through to_jsonb: the column is absent before migration 0060.
      `SELECT id, report_id, content, content_type, to_jsonb(chunks)->>'heading_path' AS heading_path,
              embedding IS NOT NULL AS embedded
         FROM chunks WHERE report_id = ANY($1::uuid[]) ORDER BY report_id, order_in_doc`,
      [[...reportOf.values()]],
    );
    const contentOf = new Map(rows.map((r) => [r.id, r.content]));
    // Page furniture left in chunks: a line running on half the pages of its PDF, or "Page N of M".
    const fileOfReport = new Map([...reportOf].map(([file, id]) => [id, file]));
    const runningOf = new Map(
      files.map((f) => [f, runningLines((pagesOf.get(f) ?? []).map((p) => p.text))]),
    );
    const furnished = rows.filter((r) =>
      holdsFurniture(r.content, runningOf.get(fileOfReport.get(r.report_id) ?? '') ?? new Set()),
    );
    const furnitureByFile: Record<string, number> = {};
    for (const r of furnished) {
      const file = fileOfReport.get(r.report_id) ?? '?';
      furnitureByFile[file] = (furnitureByFile[file] ?? 0) + 1;
    }
    console.log(
      `chunks holding page furniture: ${furnished.length} of ${rows.length}${
        furnished.length
          ? ` (${Object.entries(furnitureByFile)
              .map(([f, n]) => `${f} ${n}`)
              .join(', ')})`
          : ''
      }`,
    );
    // Photos kept as figures, judged from poppler's list of the images each page draws.
    const { rows: figureRows } = await system.db.pool.query<{
      report_id: string;
      page_number: number | null;
      width: number | null;
      height: number | null;
    }>(
      `SELECT report_id, page_number, width, height FROM figures
        WHERE report_id = ANY($1::uuid[]) ORDER BY report_id, order_in_doc`,
      [[...reportOf.values()]],
    );
    const photosOf = new Map<string, PhotoCount>();
    for (const f of files) {
      const id = reportOf.get(f);
      if (id === undefined || failed.has(f)) continue;
      const listed = parseImageList(await imageList(path.join(dir, f)));
      const kept = figureRows
        .filter((r) => r.report_id === id)
        .map((r) => ({ page: r.page_number, width: r.width ?? 0, height: r.height ?? 0 }));
      const textless = new Set(
        (pagesOf.get(f) ?? []).filter((p) => !/\p{L}/u.test(p.text)).map((p) => p.page),
      );
      photosOf.set(f, countPhotos(listed, kept, await pageAreas(path.join(dir, f)), textless));
    }
    const photoSum = (
      k: 'photos' | 'kept' | 'repeated' | 'repeatedKept' | 'pageScans' | 'otherFigures',
    ) => [...photosOf.values()].reduce((n, c) => n + c[k], 0);
    console.log(
      `photos kept as figures: ${photoSum('kept')} of ${photoSum('photos')}; images repeated on 3+ ` +
        `pages kept: ${photoSum('repeatedKept')} of ${photoSum('repeated')}; page scans: ` +
        `${photoSum('pageScans')}; other figures: ` +
        `${photoSum('otherFigures')}`,
    );
    for (const [f, c] of photosOf)
      for (const p of c.notKept)
        console.log(`  photo not kept: ${f} p. ${p.page} (${p.width} x ${p.height} px)`);
    const headingOf = new Map(rows.map((r) => [r.id, r.heading_path]));
    const byType: Record<string, number> = {};
    for (const r of rows) byType[r.content_type] = (byType[r.content_type] ?? 0) + 1;
    console.log(
      `ingested in ${ingestS.toFixed(1)} s: ${rows.length} chunks (${rows.filter((r) => r.embedded).length} embedded; ${Object.entries(
        byType,
      )
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')})`,
    );

    // References: BM25 over pdftotext pages, and BM25 over the system's own chunks.
    const db = system.db.pool;
    const queryTokens = await pgTokens(
      db,
      questions.map((q) => q.question),
    );
    const pageSearch = new Map<string, (q: string[]) => number[]>();
    const chunkSearch = new Map<
      string,
      { texts: string[]; search: Map<number, (q: string[]) => number[]> }
    >();
    for (const f of files) {
      pageSearch.set(
        f,
        bm25Index(
          await pgTokens(
            db,
            pagesOf.get(f)!.map((p) => p.text),
          ),
        ),
      );
      const own = rows.filter((r) => r.report_id === reportOf.get(f));
      const texts = own.map((r) => r.content);
      const bodyTokens = await pgTokens(db, texts);
      const headingTokens = await pgTokens(
        db,
        own.map((r) => r.heading_path ?? ''),
      );
      chunkSearch.set(f, {
        texts,
        search: new Map(
          HEADING_WEIGHTS.map((w) => [
            w,
            w > 0
              ? bm25Index(bodyTokens, { tokens: headingTokens, weight: w })
              : bm25Index(bodyTokens),
          ]),
        ),
      });
    }

    nats = await connectNats(system.nats.url, 'eval');
    const perQuestion = await inPool(questions, CONCURRENCY, async (q) => {
      const i = questions.indexOf(q);
      const reportId = reportOf.get(q.file)!;
      const pages = pagesOf.get(q.file)!;
      const rankedPages = pageSearch.get(q.file)!(queryTokens[i]!).map((k) => pages[k]!);
      const baseline = outcome(
        q,
        rankedPages.map((p) => p.text),
        (k) => q.pages.includes(rankedPages[k]!.page),
      );
      const own = chunkSearch.get(q.file)!;
      const bm25Chunks = Object.fromEntries(
        [...own.search].map(([w, search]) => [
          `bm25_chunks_heading_x${w}`,
          outcome(
            q,
            search(queryTokens[i]!).map((k) => own.texts[k]!),
          ),
        ]),
      );
      const fusion: Record<string, Outcome> = {};
      for (const w of KEYWORD_WEIGHTS) {
        fusion[`hybrid_keyword_x${w}`] = outcome(
          q,
          await retrieveLeg(nats!, reportId, q.question, 'hybrid', contentOf, w),
        );
      }
      // The `RETRIEVAL_WORD_FAMILIES` option (ADR 076): the keyword leg alone and the system's
      // fusion with it.
      fusion.keyword_leg_word_families = outcome(
        q,
        await retrieveLeg(nats!, reportId, q.question, 'keyword', contentOf, undefined, true),
      );
      fusion.hybrid_word_families = outcome(
        q,
        await retrieveLeg(nats!, reportId, q.question, 'hybrid', contentOf, 1, true),
      );
      // The local reranker (`RERANK_ENABLED` without `RERANK_URL`, ADR 138) over the spec's
      // fusion; the columns above keep the fused order.
      fusion.hybrid_local_rerank = outcome(
        q,
        await retrieveLeg(nats!, reportId, q.question, 'hybrid', contentOf, 1, false, 'local'),
      );
      const res = await fetch(`${system!.url}/retrieve`, {
        method: 'POST',
        headers: user.headers({ 'content-type': 'application/json' }),
        body: JSON.stringify({
          query: q.question,
          scope: { type: 'folder', report_id: reportId },
          top_k: TOP_K,
        }),
      });
      if (res.status !== 200)
        throw new Error(`retrieve ${q.id}: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { chunks: Array<{ id: string; content: string }> };
      const systemHit = outcome(
        q,
        body.chunks.map((c) => c.content),
      );
      if (SHOW_MISSES && systemHit.rank === 0) {
        const paths = body.chunks.map((c) => headingOf.get(c.id) ?? '(no heading path)');
        console.log(`miss ${q.id}: the top 6 came from\n  ${paths.join('\n  ')}`);
      }
      const keyword = outcome(
        q,
        await retrieveLeg(nats!, reportId, q.question, 'keyword', contentOf),
      );
      const vector = outcome(
        q,
        await retrieveLeg(nats!, reportId, q.question, 'vector', contentOf),
      );
      const legs = DUMP_LEGS
        ? {
            // Each leg's own rank: the returned order puts figures after text.
            keyword: (await retrieveFolder(nats!, reportId, q.question, DUMP_DEPTH, 'keyword')).map(
              (c) => [c.id, c.bm25_rank],
            ),
            vector: (await retrieveFolder(nats!, reportId, q.question, DUMP_DEPTH, 'vector')).map(
              (c) => [c.id, c.vector_rank],
            ),
            system: body.chunks.map((c) => c.id),
          }
        : null;
      let chatStates: boolean | null = null;
      let chatFirst: boolean | null = null;
      let chatCited: boolean | null = null;
      if (CHAT) {
        const answer = await chat(
          system!,
          user,
          { report_id: reportId, message: q.question },
          {
            timeoutMs: 300_000,
          },
        );
        if (answer.status !== 200)
          throw new Error(`chat ${q.id}: ${answer.status} ${JSON.stringify(answer.body)}`);
        chatStates = statesAnswer(q, answer.text);
        const lead = answerLead(answer.text);
        chatFirst = statesAnswer(q, lead);
        chatCited = chatFirst && citesPage(lead);
        if (SHOW_ANSWERS) console.log(`answer ${q.id} (${q.answer}):\n${answer.text}\n`);
        // EVAL_DUMP_CHAT=DIR: the question and the chunks the answer was given, for reading
        // an answer against its documents (outside the repository: it is document text).
        if (DUMP_CHAT && answer.start) {
          const used = answer.start.chunks_used.map((c) => ({
            ...c,
            content: contentOf.get(c.id) ?? null,
          }));
          await writeFile(
            path.join(DUMP_CHAT, `${q.id}.json`),
            JSON.stringify({ question: q.question, answer: answer.text, chunks: used }, null, 1),
          );
        }
      }
      return {
        id: q.id,
        file: q.file,
        question: q.question,
        answer: q.answer,
        runs: {
          system: systemHit,
          keyword_leg: keyword,
          vector_leg: vector,
          ...fusion,
          ...bm25Chunks,
          baseline_pdftotext_pages_bm25: baseline,
        } as Record<string, Outcome>,
        chat: { states: chatStates, first: chatFirst, cited: chatCited },
        legs,
      };
    });
    if (DUMP_LEGS) {
      await writeFile(
        DUMP_LEGS,
        JSON.stringify({
          reports: Object.fromEntries(reportOf),
          chunks: rows.map(({ id, report_id, content, content_type, heading_path }) => ({
            id,
            report_id,
            content,
            content_type,
            heading_path,
          })),
          questions: perQuestion.map(({ id, file, question, answer, legs }) => ({
            id,
            file,
            question,
            answer,
            legs,
          })),
        }),
      );
    }

    // The in-memory folder index (ADR 135) against the SQL legs it replaced, on these reports.
    const answerable = questions.filter((q) => reportOf.has(q.file));
    const paths = await compareRetrievalPaths(
      system,
      (['keyword', 'vector', 'hybrid'] as const).flatMap((legs) =>
        answerable.map((q) => ({
          label: `${legs} ${q.id}`,
          run: () => retrieveFolder(nats!, reportOf.get(q.file)!, q.question, 50, legs),
        })),
      ),
    );
    console.log(
      `in-memory index vs SQL legs: ${paths.identical} of ${paths.retrievals} retrievals identical (top 50); ` +
        `largest BM25 score difference ${paths.max_bm25_score_diff.toExponential(1)}, distance ${paths.max_vector_dist_diff.toExponential(1)}` +
        (paths.first_difference ? `; first difference: ${paths.first_difference}` : ''),
    );

    const names = Object.keys(perQuestion[0]!.runs);
    const table = Object.fromEntries(
      names.map((name) => {
        const ranks = perQuestion.map((r) => r.runs[name]!.rank);
        return [
          name,
          {
            hit_at_6: ranks.filter((r) => r > 0).length,
            mrr_at_6: mean(ranks.map((r) => (r > 0 ? 1 / r : 0))),
          },
        ];
      }),
    );
    const chatStated = perQuestion.filter((r) => r.chat.states).length;
    const chatFirstN = perQuestion.filter((r) => r.chat.first).length;
    const chatCitedN = perQuestion.filter((r) => r.chat.cited).length;
    const n = questions.length;
    const label = (name: string): string =>
      ({
        system: 'this system (POST /retrieve)',
        keyword_leg: 'keyword leg alone',
        keyword_leg_word_families: 'keyword leg alone, word families',
        hybrid_word_families: 'hybrid, keyword weight 1, word families',
        hybrid_local_rerank: 'hybrid, keyword weight 1, local reranker',
        vector_leg: 'vector leg alone',
        baseline_pdftotext_pages_bm25: 'pdftotext page + BM25 (baseline)',
      })[name] ??
      name
        .replace(/^hybrid_keyword_x(\d+)$/, 'hybrid, keyword weight $1')
        .replace(/^bm25_chunks_heading_x(\d+)$/, 'BM25 over the system chunks, heading x$1');
    const shown = ['system', 'keyword_leg', 'vector_leg', 'baseline_pdftotext_pages_bm25'];
    console.log(`\n| question | ${shown.join(' | ')} | chat |`);
    console.log(`| --- | ${shown.map(() => '---').join(' | ')} | --- |`);
    for (const r of perQuestion) {
      const cells = shown.map((name) => String(r.runs[name]!.rank || '-'));
      const chatCell = r.chat.states === null ? 'n/a' : r.chat.states ? 'yes' : 'no';
      console.log(`| ${r.id} | ${cells.join(' | ')} | ${chatCell} |`);
    }
    console.log(`\n| measure (${n} questions) | hit@6 | MRR@6 |\n| --- | --- | --- |`);
    for (const [name, m] of Object.entries(table)) {
      console.log(`| ${label(name)} | ${m.hit_at_6} / ${n} | ${m.mrr_at_6.toFixed(3)} |`);
    }
    console.log(
      `| chat answer (local default model) states the fact | ${CHAT ? `${chatStated} / ${n}` : 'not run'} | |`,
    );
    console.log(`| ... in its first paragraph | ${CHAT ? `${chatFirstN} / ${n}` : 'not run'} | |`);
    console.log(
      `| ... there, with a file and page citation | ${CHAT ? `${chatCitedN} / ${n}` : 'not run'} | |`,
    );
    const sys = table.system!;
    const base = table.baseline_pdftotext_pages_bm25!;
    console.log(
      `\ntargets: system hit@6 >= 28/30 of the questions: ${sys.hit_at_6 / n >= 28 / 30}; system above the baseline: ${
        sys.hit_at_6 > base.hit_at_6 ||
        (sys.hit_at_6 === base.hit_at_6 && sys.mrr_at_6 > base.mrr_at_6)
      }`,
    );
    const result = {
      date: new Date().toISOString(),
      commit: git(['rev-parse', '--short', 'HEAD']),
      dirty: git(['status', '--porcelain']).length > 0,
      node: process.version,
      cpu_count: os.cpus().length,
      dataset: {
        questions_file: path.basename(questionsArg),
        questions: n,
        reports: files.length,
        pages: pageCount,
        failed_reports: [...failed],
        missing_reports: missing,
        chunks: rows.length,
        chunks_by_type: byType,
        embedded_chunks: rows.filter((r) => r.embedded).length,
        chunks_with_page_furniture: furnished.length,
        page_furniture_by_file: furnitureByFile,
        photos: {
          listed: photoSum('photos'),
          kept_as_figures: photoSum('kept'),
          repeated_images: photoSum('repeated'),
          repeated_kept_as_figures: photoSum('repeatedKept'),
          page_scans: photoSum('pageScans'),
          other_figures: photoSum('otherFigures'),
          not_kept: Object.fromEntries(
            [...photosOf].flatMap(([f, c]) => (c.notKept.length ? [[f, c.notKept]] : [])),
          ),
        },
      },
      config: {
        embedding_provider: system.env.EMBEDDING_PROVIDER ?? 'local',
        llm_provider: system.env.LLM_PROVIDER ?? 'local',
        rerank: ['1', 'true', 'yes', 'on'].includes(system.env.RERANK_ENABLED ?? '')
          ? system.env.RERANK_URL
            ? 'remote'
            : 'local'
          : 'off',
        top_k: TOP_K,
        baseline:
          'pdftotext (poppler, default reading order) one chunk per page; wink-bm25-text-search k1 1.2 b 0.75 over tokens of to_tsvector(simple, immutable_unaccent(text)); a hit must be a judged page',
      },
      metrics: {
        ...table,
        chat_states_fact: CHAT ? chatStated : null,
        chat_states_fact_first: CHAT ? chatFirstN : null,
        chat_states_fact_first_cited: CHAT ? chatCitedN : null,
      },
      in_memory_vs_sql_legs: paths,
      targets: {
        system_hit_at_6_ge_28_of_30: sys.hit_at_6 / n >= 28 / 30,
        system_above_baseline:
          sys.hit_at_6 > base.hit_at_6 ||
          (sys.hit_at_6 === base.hit_at_6 && sys.mrr_at_6 > base.mrr_at_6),
      },
      ingest_s: ingestS,
      total_run_s: (Date.now() - started) / 1000,
      per_question: perQuestion.map(({ legs: _legs, ...r }) => r),
    };
    await mkdir(RESULTS, { recursive: true });
    const stamp = result.date.replace(/[:.]/g, '-');
    // questions.json writes eval-reports-*; another set (heldout.questions.json) its own name.
    const set = path.basename(questionsArg).replace(/\.?questions\.json$/, '');
    const name = set ? `eval-reports-${set}` : 'eval-reports';
    const text = `${JSON.stringify(result, null, 2)}\n`;
    await writeFile(path.join(RESULTS, `${name}-${stamp}.json`), text);
    const tmp = path.join(RESULTS, `${name}-latest.json.tmp`);
    await writeFile(tmp, text);
    await rename(tmp, path.join(RESULTS, `${name}-latest.json`));
    console.log(
      `\nresults: bench/results/${name}-latest.json (run ${result.total_run_s.toFixed(0)} s)`,
    );
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(
    `eval failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
