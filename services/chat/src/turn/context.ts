import {
  CHAT_TOP_K,
  MULTI_REPORT_MAX,
  TOP_K_MAX,
  type ChatCaller,
  type ChatMode,
  type ChatRequest,
  type ChunkUsed,
  type FallbackReason,
  type RetrievedChunk,
} from '@reports/contracts';
import {
  observeProviderCall,
  type Logger,
  type Pool,
  type RetrievalClient,
} from '@reports/platform';
import type { ChatModel, ContextDocument, TokenUsage } from '@reports/providers';
import {
  inSection,
  reportName,
  reportText,
  type ReportRef,
  type ReportSection,
} from '../reports/store.js';
import type { HistoryPair } from '../history/history.js';
import { fitText } from '../prompt/prompt.js';
import { REWRITE_SYSTEM, cleanRewrite, localRewrite, rewritePrompt } from '../prompt/rewrite.js';

/**
 * Candidates asked of retrieval when a section narrows the turn: the folder's best
 * chunks are filtered down to that section's, so more are asked for than are kept.
 */
export const SECTION_CANDIDATES = TOP_K_MAX;
/** Time budget of the query rewrite: it runs before any byte of the answer. */
export const REWRITE_TIMEOUT_MS = 15_000;

/** Where a turn's documents came from and what they are. */
export interface TurnContext {
  mode: ChatMode;
  documents: ContextDocument[];
  /** What the local answerer looks for: the standalone query (single report), else the message. */
  query: string;
  rewrittenQuery: string | null;
  retrievalLogId: string | null;
  fallbackReason: FallbackReason | null;
  chunksUsed: ChunkUsed[];
  /** Tokens of the rewrite call, when a model made one. */
  rewriteUsage: TokenUsage | null;
}

export interface ContextDeps {
  pool: Pool;
  retrieval: RetrievalClient;
  logger: Logger;
  contextMaxChars: number;
}

export interface ContextInput {
  caller: ChatCaller;
  request: ChatRequest;
  report: ReportRef;
  /** Compare mode: every report of the turn, `report` first. */
  compare: ReportRef[] | null;
  section: ReportSection | null;
  history: HistoryPair[];
  model: ChatModel;
  signal: AbortSignal;
}

/** How a retrieved chunk is named in the documents block. Pure. */
export function chunkTitle(chunk: RetrievedChunk): string {
  const where = chunk.section_name ?? chunk.source_label ?? 'Report';
  return chunk.attachment_filename ? `${where} (attachment ${chunk.attachment_filename})` : where;
}

/** Pages for people: `p. 4`, `pp. 4–5`, or nothing when the document has none. Pure. */
export function pagesLabel(start: number | null, end: number | null): string | null {
  if (start === null || start < 1) return null;
  return end !== null && end > start ? `pp. ${start}–${end}` : `p. ${start}`;
}

/**
 * How an answer cites a chunk: the file it comes from (the attachment's, else the report's
 * file name) and its pages, `Inspection.pdf p. 12`. Pure.
 */
export function chunkCitation(chunk: RetrievedChunk, reportFile: string): string {
  const pages = pagesLabel(chunk.page_start, chunk.page_end);
  const file = chunk.attachment_filename ?? reportFile;
  return pages ? `${file} ${pages}` : file;
}

function used(
  chunks: readonly RetrievedChunk[],
  fileOf: (c: RetrievedChunk) => string,
): ChunkUsed[] {
  return chunks.map((c, i) => ({
    ref: `C${i + 1}`,
    id: c.id,
    report_id: c.report_id,
    section_name: c.section_name,
    source_type: c.source_type,
    attachment_filename: c.attachment_filename,
    file: c.attachment_filename ?? fileOf(c),
    page_start: c.page_start,
    page_end: c.page_end,
    figure_id: c.figure_id,
    citation: chunkCitation(c, fileOf(c)),
  }));
}

/** The documents of retrieved chunks: each titled, with its citation and attachment. */
function chunkDocuments(
  chunks: readonly RetrievedChunk[],
  fileOf: (c: RetrievedChunk) => string,
  titleOf: (c: RetrievedChunk) => string = chunkTitle,
): ContextDocument[] {
  return chunks.map((c, i) => ({
    ref: `C${i + 1}`,
    title: titleOf(c),
    text: c.content,
    citation: chunkCitation(c, fileOf(c)),
    attachment: c.attachment_filename,
  }));
}

/**
 * Spec step 4: the standalone query. Unchanged without history; a model that writes
 * rewrites it (a failure keeps the message, logged); the local answerer joins the
 * previous question to this one.
 */
async function rewrite(
  deps: ContextDeps,
  input: ContextInput,
): Promise<{ query: string; usage: TokenUsage | null }> {
  const message = input.request.message;
  if (input.history.length === 0) return { query: message, usage: null };
  const writer = input.model.writer;
  if (!writer) return { query: localRewrite(input.history, message), usage: null };
  try {
    const done = await observeProviderCall(
      { provider: writer.provider, model: writer.model, operation: 'chat_rewrite' },
      () =>
        writer.complete({
          system: REWRITE_SYSTEM,
          prompt: rewritePrompt(input.history, message),
          maxTokens: 200,
          temperature: 0,
          signal: AbortSignal.any([input.signal, AbortSignal.timeout(REWRITE_TIMEOUT_MS)]),
        }),
      (c) => ({
        units: { input_tokens: c.inputTokens ?? 0, output_tokens: c.outputTokens ?? 0 },
      }),
    );
    const usage =
      done.inputTokens !== null || done.outputTokens !== null
        ? { inputTokens: done.inputTokens ?? 0, outputTokens: done.outputTokens ?? 0 }
        : null;
    return { query: cleanRewrite(done.text, message), usage };
  } catch (error) {
    deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'query rewrite failed; retrieving with the message as asked',
    );
    return { query: message, usage: null };
  }
}

/** Chunks a compare turn asks of the multi-report retrieval. */
export const COMPARE_TOP_K = 12;

/**
 * A compare turn whose reports are too long for their full text: the best chunks across the
 * reports in one ranking, each titled with its report. Null when retrieval fails or finds nothing.
 */
async function compareByRetrieval(
  deps: ContextDeps,
  input: ContextInput,
  compare: readonly ReportRef[],
): Promise<Pick<
  TurnContext,
  'mode' | 'query' | 'documents' | 'retrievalLogId' | 'chunksUsed'
> | null> {
  try {
    const result = await deps.retrieval.retrieve({
      caller: { kind: 'user', user_id: input.caller.user_id, tenant_id: input.caller.tenant_id },
      scope: { type: 'multi_report', report_ids: compare.map((r) => r.id) },
      query: input.request.message,
      top_k: COMPARE_TOP_K,
    });
    if (result.chunks.length === 0) return null;
    const names = new Map(compare.map((r) => [r.id, reportName(r)]));
    const files = new Map(compare.map((r) => [r.id, r.filename]));
    const fileOf = (c: RetrievedChunk): string => files.get(c.report_id) ?? 'report';
    return {
      mode: 'compare',
      query: input.request.message,
      retrievalLogId: result.retrieval_log_id,
      chunksUsed: used(result.chunks, fileOf),
      documents: chunkDocuments(
        result.chunks,
        fileOf,
        (c) => `${names.get(c.report_id) ?? 'Report'}: ${chunkTitle(c)}`,
      ),
    };
  } catch (error) {
    deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'multi-report retrieval failed; comparing the cut full texts',
    );
    return null;
  }
}

/**
 * The documents of a turn and the mode they give (spec per-turn flow, steps 4 to 7):
 * snapshot (`report_json`), compare (the full text of each report, the budget shared),
 * or a single report: rewrite, folder retrieval with top_k 6 (narrowed to the section
 * when one is asked for), and the full text (or the section's) when retrieval finds
 * nothing or fails.
 */
export async function buildContext(deps: ContextDeps, input: ContextInput): Promise<TurnContext> {
  const { request } = input;
  const base = {
    rewrittenQuery: null,
    retrievalLogId: null,
    fallbackReason: null,
    chunksUsed: [],
    rewriteUsage: null,
  };
  if (request.report_json) {
    return {
      ...base,
      mode: 'snapshot',
      query: request.message,
      documents: [
        {
          ref: 'S1',
          title: `Snapshot of ${reportName(input.report)}`,
          text: fitText(JSON.stringify(request.report_json, null, 2), deps.contextMaxChars),
        },
      ],
    };
  }
  if (input.compare) {
    const compare = input.compare;
    const share = Math.floor(deps.contextMaxChars / compare.length);
    const texts = await Promise.all(
      compare.map((r) => reportText(deps.pool, input.caller.tenant_id, r.id)),
    );
    // Too long for the full text of each: one multi-report retrieval over the reports
    // (docs/adr/130-section-and-multi-report-scopes.md); on failure or no chunks, the cut texts.
    if (texts.some((t) => t.length > share) && compare.length <= MULTI_REPORT_MAX) {
      const retrieved = await compareByRetrieval(deps, input, compare);
      if (retrieved) return { ...base, ...retrieved };
    }
    const documents = compare.map((r, i) => ({
      ref: `R${i + 1}`,
      title: reportName(r),
      text: fitText(texts[i]!, share),
    }));
    return { ...base, mode: 'compare', query: request.message, documents };
  }

  const { query, usage } = await rewrite(deps, input);
  let fallbackReason: FallbackReason;
  let retrievalLogId: string | null = null;
  try {
    const result = await deps.retrieval.retrieve({
      caller: { kind: 'user', user_id: input.caller.user_id, tenant_id: input.caller.tenant_id },
      // A parsed section is a retrieval scope; a v1 heading split (no id) filters the folder's chunks.
      scope:
        input.section?.id && request.section
          ? { type: 'section', report_id: input.report.id, section: request.section }
          : { type: 'folder', report_id: input.report.id },
      query,
      top_k: input.section && !input.section.id ? SECTION_CANDIDATES : CHAT_TOP_K,
    });
    retrievalLogId = result.retrieval_log_id;
    const section = input.section;
    const chunks = (
      section && !section.id ? result.chunks.filter((c) => inSection(c, section)) : result.chunks
    ).slice(0, CHAT_TOP_K);
    if (chunks.length > 0) {
      return {
        mode: 'rag',
        query,
        rewrittenQuery: query,
        retrievalLogId,
        fallbackReason: null,
        rewriteUsage: usage,
        chunksUsed: used(chunks, () => input.report.filename),
        documents: chunkDocuments(chunks, () => input.report.filename),
      };
    }
    fallbackReason = 'no_chunks';
  } catch (error) {
    deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error), report_id: input.report.id },
      'retrieval failed; answering from the full text',
    );
    fallbackReason = 'retrieval_failed';
  }
  const text = input.section
    ? input.section.markdown
    : await reportText(deps.pool, input.caller.tenant_id, input.report.id);
  return {
    mode: 'full_fallback',
    query,
    rewrittenQuery: query,
    retrievalLogId,
    fallbackReason,
    rewriteUsage: usage,
    chunksUsed: [],
    documents: [
      {
        ref: 'R1',
        title: input.section
          ? `${reportName(input.report)}, section ${input.section.name}`
          : reportName(input.report),
        text: fitText(text, deps.contextMaxChars),
        citation: input.report.filename,
        attachment: null,
      },
    ],
  };
}
