import { countTokens } from 'gpt-tokenizer';
import type { ChunkContentType } from '@reports/contracts';
import { splitSentences } from '@reports/providers';

export interface SectionText {
  id: string;
  section_name: string;
  section_slug: string;
  markdown: string;
  /** Heading level, 1 = top; 0 for the untitled content before the first heading. */
  level: number;
  /** 1-based pages the section spans (PDF), null where the format has none. */
  page_start?: number | null;
  page_end?: number | null;
}

/** A table of the target, as the parse stage stored it (its markdown also sits in its section's). */
export interface TableText {
  id: string;
  section_id: string | null;
  markdown: string;
}

/** A figure of the target with what the annotate stage (which runs before embed) said of it. */
export interface FigureText {
  id: string;
  section_id: string | null;
  page_number: number | null;
  /** Caption or alt text the document gives the image, or text read in it. */
  caption: string | null;
  /** The annotation's summary; null when there is none or it is the no-model heuristic. */
  summary: string | null;
}

export interface DocumentText {
  /** The document's title (report title or file name); the first element of every heading path. */
  title: string | null;
  sections: SectionText[];
  tables?: TableText[];
  figures?: FigureText[];
}

export interface ChunkDraft {
  section_id: string;
  section_name: string;
  section_slug: string;
  content_type: ChunkContentType;
  table_id: string | null;
  figure_id: string | null;
  /** Headings above the chunk, outermost first, joined with " > " (title > system > subsection). */
  heading_path: string;
  content: string;
  content_tokens: number;
  order_in_doc: number;
  /**
   * The pages its text comes from: a short section's text joined to its parent's chunk brings
   * its own pages (a child on page 2 under a parent on page 1: pages 1-2). Null: unknown.
   */
  page_start: number | null;
  page_end: number | null;
}

export interface ChunkingOptions {
  /** Aim for chunks of about this many tokens. */
  targetTokens: number;
  /** Never exceed this many tokens (a longer sentence is cut by words). */
  maxTokens: number;
  /** A section whose own text is shorter than this merges into its parent's chunks. */
  minSectionTokens: number;
}

export const DEFAULT_CHUNKING: ChunkingOptions = {
  targetTokens: 350,
  maxTokens: 512,
  minSectionTokens: 80,
};

export const HEADING_SEPARATOR = ' > ';

/**
 * What both retrieval legs index for a chunk: its heading path, then its text. The keyword leg's
 * tsvector is generated from the same two columns (migration 0060), the vector leg embeds this.
 */
export function indexedText(chunk: Pick<ChunkDraft, 'heading_path' | 'content'>): string {
  return chunk.heading_path ? `${chunk.heading_path}\n${chunk.content}` : chunk.content;
}

/**
 * The text the vector leg embeds: the indexed text, but a figure's caption and summary alone. A
 * caption is a few words against a path of six or eight, so with its path every figure of a section
 * embeds near the same point, the path's, and the local embedder (no IDF) put a page of photo
 * captions ("Figure, page 55: Typical Office" under "… > Addenda > Subject Property Photos") first
 * for any question that names "property". The keyword leg still indexes a figure's path.
 */
export function embeddedText(
  chunk: Pick<ChunkDraft, 'heading_path' | 'content' | 'content_type'>,
): string {
  return chunk.content_type === 'figure' ? chunk.content : indexedText(chunk);
}

/** Splits text into the largest pieces that fit: paragraphs, then lines, then sentences, then words. */
function pieces(text: string, maxTokens: number): string[] {
  if (countTokens(text) <= maxTokens) return [text];
  const paragraphs = text.split(/\n{2,}/).filter((p) => p.trim());
  if (paragraphs.length > 1) return paragraphs.flatMap((p) => pieces(p, maxTokens));
  const lines = text.split('\n').filter((l) => l.trim());
  if (lines.length > 1) return packLines(lines, maxTokens).flatMap((p) => pieces(p, maxTokens));
  const sentences = splitSentences(text);
  if (sentences.length > 1) return sentences.flatMap((s) => pieces(s, maxTokens));
  const words = text.split(/\s+/);
  const out: string[] = [];
  let current: string[] = [];
  for (const word of words) {
    current.push(word);
    if (countTokens(current.join(' ')) > maxTokens) {
      current.pop();
      if (current.length) out.push(current.join(' '));
      current = [word];
    }
  }
  if (current.length) out.push(current.join(' '));
  return out;
}

/** Whole lines packed into pieces of at most `maxTokens` (a line alone may be longer). */
function packLines(lines: string[], maxTokens: number): string[] {
  const out: string[] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (current.length && countTokens([...current, line].join('\n')) > maxTokens) {
      out.push(current.join('\n'));
      current = [];
    }
    current.push(line);
  }
  if (current.length) out.push(current.join('\n'));
  return out;
}

/** A piece that ends in a label ("Furnace:", "Approximate age:") belongs with what follows it. */
function endsWithLabel(text: string): boolean {
  return /:\s*$/.test(text);
}

/** Longest paragraph that leads a table into its chunks ("Sample North … Summary: …"). */
const LEAD_IN_CHARS = 240;

/** Where a table was cut out, until the text is whole: no lead-in reaches across another table. */
const TABLE_GAP = '\n\n\u0000\n\n';

/** A table cut out of its section's text, with the short paragraph just above it, if any. */
interface CutTable {
  table: TableText;
  leadIn: string | null;
}

/**
 * The section's text with its tables cut out (they become table chunks), and the tables found,
 * each with the paragraph that leads into it: a short paragraph right above a table names what
 * the table is about ("Sample North (Town A & Town B) Summary: …" above a table of strengths
 * and weaknesses), and a table chunk without it does not say whose weaknesses it lists.
 */
function withoutTables(
  markdown: string,
  tables: readonly TableText[],
): { text: string; cut: CutTable[] } {
  let text = markdown;
  const cut: CutTable[] = [];
  for (const table of tables) {
    const at = text.indexOf(table.markdown.trim());
    if (at < 0) continue;
    cut.push({ table, leadIn: leadInOf(text.slice(0, at)) });
    text = `${text.slice(0, at)}${TABLE_GAP}${text.slice(at + table.markdown.trim().length)}`;
  }
  return {
    text: text
      .replaceAll(TABLE_GAP, '\n\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    cut,
  };
}

/** The last paragraph of `before` when it is short prose, not a table row or another table's gap. */
function leadInOf(before: string): string | null {
  const last =
    before
      .trimEnd()
      .split(/\n{2,}/)
      .at(-1)
      ?.trim() ?? '';
  if (!last || last.includes('\u0000') || last.startsWith('|') || last.length > LEAD_IN_CHARS)
    return null;
  return last.replace(/\s+/g, ' ');
}

/** A short section's text as one line of its parent: the heading is its label. */
function asLabelled(name: string, text: string): string {
  if (!text) return '';
  const label = name.trim().replace(/[:\s]+$/, '');
  return text.includes('\n') ? `${label}:\n${text}` : `${label}: ${text}`;
}

/**
 * Table rows in pieces that fit, each piece led by the paragraph that leads into the table (if
 * any), then the header row and its separator.
 */
function tablePieces(
  markdown: string,
  targetTokens: number,
  leadIn: string | null = null,
): string[] {
  const lines = markdown
    .trim()
    .split('\n')
    .filter((l) => l.trim());
  const separator = lines.findIndex((l) => /^\s*\|?\s*:?-{3,}/.test(l));
  const head = separator === 1 ? lines.slice(0, 2) : [];
  const body = separator === 1 ? lines.slice(2) : lines;
  const lead = leadIn ? [leadIn, ''] : [];
  const headText = [...lead, ...head].join('\n');
  const out: string[] = [];
  let current: string[] = [];
  const budget = Math.max(targetTokens - countTokens(headText), 32);
  for (const row of body) {
    if (current.length && countTokens([...current, row].join('\n')) > budget) {
      out.push([...lead, ...head, ...current].join('\n'));
      current = [];
    }
    current.push(row);
  }
  if (current.length || out.length === 0) out.push([...lead, ...head, ...current].join('\n'));
  return out;
}

/** Text of a group with the pages it comes from. */
interface Part {
  text: string;
  pages: Pages;
}

interface Pages {
  start: number | null;
  end: number | null;
}

interface Group {
  section: SectionText;
  path: string;
  parts: Part[];
}

function pagesOf(section: SectionText): Pages {
  const start = section.page_start ?? null;
  return { start, end: section.page_end ?? start };
}

/** The pages of several pieces together: the first to the last. */
function spanOf(all: readonly Pages[]): Pages {
  const starts = all.map((p) => p.start).filter((n): n is number => n !== null);
  const ends = all.map((p) => p.end).filter((n): n is number => n !== null);
  return {
    start: starts.length ? Math.min(...starts) : null,
    end: ends.length ? Math.max(...ends) : null,
  };
}

/** The heading path: the title, then each heading, without a heading that repeats the one above. */
function joinPath(names: readonly (string | null)[]): string {
  const out: string[] = [];
  for (const raw of names) {
    const name = raw?.replace(/\s+/g, ' ').trim();
    if (!name) continue;
    if (out.length && out.at(-1)!.toLowerCase() === name.toLowerCase()) continue;
    out.push(name);
  }
  return out.join(HEADING_SEPARATOR);
}

/** A parent's own text shorter than this opens its first child's chunk. */
const CARRIED_TOKENS = 20;

/** The tokens of a group's text. */
function partsTokens(group: Group): number {
  return group.parts.reduce((n, p) => n + countTokens(p.text), 0);
}

/**
 * Chunks a document for retrieval (docs/adr/075-chunks-keep-their-context.md):
 * - every chunk carries the path of headings above it (title > system > subsection);
 * - a section whose own text is shorter than `minSectionTokens` is not a chunk of its own: its
 *   text joins its parent's chunks as a labelled line ("Heading: text"), so a value stays with
 *   the label the document gave it; an empty section adds nothing but its name in paths below;
 * - a parent whose own text is a line (under `CARRIED_TOKENS`: "Location: Living Room" under
 *   "Ceiling Surfaces") opens its first child's chunk instead of making a chunk of that line;
 * - text packs whole paragraphs, then whole lines, up to the target size; a piece that ends
 *   in a label ("Approximate age:") is never separated from the piece after it;
 * - a table becomes table chunks (`content_type` table) with its header row repeated in each;
 * - a figure with a caption or a model's annotation becomes a figure chunk (`content_type`
 *   figure) with both.
 * Pure and deterministic.
 */
export function chunkDocument(
  doc: DocumentText,
  options: Partial<ChunkingOptions> = {},
): ChunkDraft[] {
  const opts: ChunkingOptions = { ...DEFAULT_CHUNKING, ...options };
  const tablesBySection = new Map<string, TableText[]>();
  for (const t of doc.tables ?? []) {
    if (!t.section_id) continue;
    tablesBySection.set(t.section_id, [...(tablesBySection.get(t.section_id) ?? []), t]);
  }
  const figuresBySection = new Map<string, FigureText[]>();
  for (const f of doc.figures ?? []) {
    if (!f.section_id) continue;
    figuresBySection.set(f.section_id, [...(figuresBySection.get(f.section_id) ?? []), f]);
  }

  const chunks: ChunkDraft[] = [];
  const push = (
    section: SectionText,
    path: string,
    content: string,
    type: ChunkContentType,
    ids: { table_id?: string; figure_id?: string } = {},
    pages: Pages = pagesOf(section),
  ) => {
    const text = content.trim();
    if (!text) return;
    chunks.push({
      section_id: section.id,
      section_name: section.section_name,
      section_slug: section.section_slug,
      content_type: type,
      table_id: ids.table_id ?? null,
      figure_id: ids.figure_id ?? null,
      heading_path: path,
      content: text,
      content_tokens: countTokens(text),
      order_in_doc: chunks.length,
      page_start: pages.start,
      page_end: pages.end,
    });
  };

  // Groups of text in document order; a group is flushed into chunks when a new one opens, so
  // chunks keep the document's order (tables and figures of a section follow its text).
  const stack: Array<{ level: number; name: string; group: Group }> = [];
  let open: Group | null = null;
  const pending: Array<() => void> = [];
  const flush = () => {
    if (open) emitText(open);
    for (const emit of pending.splice(0)) emit();
    open = null;
  };
  const emitText = (group: Group) => {
    const parts = group.parts.flatMap((p) =>
      pieces(p.text, opts.maxTokens).map((text) => ({ text, pages: p.pages })),
    );
    let buffer = '';
    let bufferTokens = 0;
    let bufferPages: Pages[] = [];
    for (const part of parts) {
      const tokens = countTokens(part.text);
      if (bufferTokens > 0 && bufferTokens + tokens > opts.targetTokens && !endsWithLabel(buffer)) {
        push(group.section, group.path, buffer, 'text', {}, spanOf(bufferPages));
        buffer = '';
        bufferTokens = 0;
        bufferPages = [];
      }
      buffer = buffer ? `${buffer}\n\n${part.text}` : part.text;
      bufferTokens += tokens;
      bufferPages.push(part.pages);
    }
    push(group.section, group.path, buffer, 'text', {}, spanOf(bufferPages));
  };

  for (const section of doc.sections) {
    const level = section.level > 0 ? section.level : 0;
    while (stack.length && stack.at(-1)!.level >= level) stack.pop();
    const path = joinPath([
      doc.title,
      ...stack.map((s) => s.name),
      level > 0 ? section.section_name : null,
    ]);
    const { text, cut } = withoutTables(section.markdown, tablesBySection.get(section.id) ?? []);
    const parent = stack.at(-1)?.group ?? null;
    let group: Group;
    if (parent && parent === open && countTokens(text) < opts.minSectionTokens) {
      group = parent;
      const line = asLabelled(section.section_name, text);
      if (line) group.parts.push({ text: line, pages: pagesOf(section) });
    } else {
      // A parent with only a line of its own ("Location: Living Room" under "Ceiling Surfaces")
      // opens its first child's chunk rather than making a chunk of its own; a summary of a
      // sentence or two stays a chunk, where it is found whole.
      const carried =
        parent && parent === open && text && partsTokens(parent) < CARRIED_TOKENS
          ? parent.parts.splice(0)
          : [];
      flush();
      // A short section whose parent's chunks are already written stands alone, labelled.
      const own = parent && countTokens(text) < opts.minSectionTokens;
      group = {
        section,
        path,
        parts: [
          ...carried,
          ...(text
            ? [
                {
                  text: own ? asLabelled(section.section_name, text) : text,
                  pages: pagesOf(section),
                },
              ]
            : []),
        ],
      };
      open = group;
    }
    for (const { table, leadIn } of cut) {
      pending.push(() => {
        for (const piece of tablePieces(table.markdown, opts.targetTokens, leadIn))
          push(section, path, piece, 'table', { table_id: table.id });
      });
    }
    // A caption that is only its section's title ("Subject Property Photos" over a page of
    // photos) says nothing the heading path does not: such three-word chunks were the first two
    // retrieved for "Who owns the property?" on an appraisal.
    const title = section.section_name.replace(/\s+/g, ' ').trim().toLowerCase();
    for (const figure of figuresBySection.get(section.id) ?? []) {
      const content = [figure.caption, figure.summary]
        .map((s) => s?.replace(/\s+/g, ' ').trim())
        .filter((s): s is string => s !== undefined && s !== '' && s.toLowerCase() !== title)
        .filter((s, i, all) => all.indexOf(s) === i)
        .join('\n');
      if (!content) continue;
      const page = figure.page_number;
      const where = page ? `Figure, page ${page}` : 'Figure';
      pending.push(() =>
        push(
          section,
          path,
          `${where}: ${content}`,
          'figure',
          { figure_id: figure.id },
          page ? { start: page, end: page } : pagesOf(section),
        ),
      );
    }
    if (level > 0) stack.push({ level, name: section.section_name, group });
  }
  flush();
  return chunks;
}

/**
 * Chunks sections alone (no title, tables or figures): the text rules of {@link chunkDocument}.
 */
export function chunkSections(
  sections: SectionText[],
  options: Partial<ChunkingOptions> = {},
): ChunkDraft[] {
  return chunkDocument({ title: null, sections }, options);
}
