import { splitSentences } from './sentences.js';
import { foldWords } from '../embedding/localEmbedder.js';
import type {
  ChatModel,
  ChatStreamEvent,
  ChatStreamRequest,
  ContextDocument,
} from './chatModel.js';

/** Model id of the local answerer (design.md section 5: local models are named `local-*`). */
export const LOCAL_EXTRACTIVE_MODEL = 'local-extractive';

/** Passages quoted at most in one answer. */
const MAX_QUOTES = 3;
/** Longest quoted passage, in characters. */
const MAX_QUOTE_CHARS = 320;

// Words that match everywhere and say nothing about what is asked.
const STOPWORDS = new Set(
  (
    'the and for are was were with what which who whom whose when where why how does did done ' +
    'this that these those there their them they then than have has had not but you your yours ' +
    "can could would should will shall may might must its it's into onto from about over under " +
    'any all some such very also just only more most less much many one two tell show give please ' +
    'report say says said know there here out off our ours his her hers him she he is be been being'
  ).split(/\s+/),
);

/** The folded words of a question worth looking for. Pure. */
export function queryTerms(query: string): string[] {
  return [
    ...new Set(
      foldWords(query).filter((w) => (w.length >= 3 || /\d/.test(w)) && !STOPWORDS.has(w)),
    ),
  ];
}

interface Passage {
  ref: string;
  text: string;
  doc: number;
  index: number;
  score: number;
}

function clean(line: string): string {
  return line
    .replace(/^\s{0,3}(?:#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)/, '')
    .replace(/\|/g, ' ')
    .replace(/[*_`]{1,3}/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The sentences of a document, markdown marks removed, in reading order. Pure. */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\n+/)) {
    if (/^\s*[-|:\s]{3,}\s*$/.test(raw)) continue; // table rules and horizontal lines
    const line = clean(raw);
    if (!line) continue;
    for (const s of splitSentences(line)) {
      if (s.length >= 12)
        out.push(s.length > MAX_QUOTE_CHARS ? `${s.slice(0, MAX_QUOTE_CHARS - 1)}…` : s);
    }
  }
  return out;
}

function matches(term: string, words: readonly string[]): boolean {
  return words.some(
    (w) =>
      w === term ||
      (term.length >= 4 && w.startsWith(term)) ||
      (w.length >= 4 && term.startsWith(w)),
  );
}

/**
 * The answer of the local model: the (at most three) sentences of the documents that
 * share most words with the question, in reading order, each quoted with its citation.
 * Deterministic: the same documents and question always give the same answer. Pure.
 */
export function extractiveAnswer(documents: readonly ContextDocument[], query: string): string {
  const terms = queryTerms(query);
  const passages: Passage[] = [];
  documents.forEach((d, doc) =>
    sentencesOf(d.text).forEach((text, index) => {
      const words = foldWords(text);
      const score = terms.filter((t) => matches(t, words)).length;
      passages.push({ ref: d.ref, text, doc, index, score });
    }),
  );
  if (passages.length === 0)
    return 'There is no report text to quote yet: the report may still be processing.';
  const best = passages
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score || a.doc - b.doc || a.index - b.index)
    .slice(0, MAX_QUOTES)
    .sort((a, b) => a.doc - b.doc || a.index - b.index);
  if (best.length === 0)
    return 'No passage of the report matches the question. Try other words, or ask about one section.';
  return ['From the report:', ...best.map((p) => `> ${p.text} [${p.ref}]`)].join('\n\n');
}

/** Cuts text into pieces of about `size` characters at spaces, as a model streams tokens. Pure. */
export function streamPieces(text: string, size = 24): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const part of text.split(/(?<=\s)/)) {
    current += part;
    if (current.length >= size) {
      pieces.push(current);
      current = '';
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/**
 * The local extractive answerer: no key, no network. It quotes and cites the
 * passages of the turn's documents that best match the question and writes nothing
 * of its own, so it has no `writer` (no query rewrite, no HyDE).
 */
export class LocalExtractiveModel implements ChatModel {
  readonly provider = 'local' as const;
  readonly model = LOCAL_EXTRACTIVE_MODEL;
  readonly extractive = true;
  readonly writer = null;

  async *stream(request: ChatStreamRequest): AsyncIterable<ChatStreamEvent> {
    const answer = extractiveAnswer(request.documents, request.query);
    for (const text of streamPieces(answer)) {
      // Give the event loop a turn between pieces, as a network stream would, so a cancel lands.
      await new Promise((resolve) => setImmediate(resolve));
      if (request.signal?.aborted) return;
      yield { type: 'delta', text };
    }
    yield { type: 'done', finishReason: 'stop', usage: null, model: this.model };
  }
}
