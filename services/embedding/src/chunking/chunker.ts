import { countTokens } from 'gpt-tokenizer';

export interface SectionText {
  id: string;
  section_name: string;
  section_slug: string;
  markdown: string;
}

export interface ChunkDraft {
  section_id: string;
  section_name: string;
  section_slug: string;
  content: string;
  content_tokens: number;
  order_in_doc: number;
}

export interface ChunkingOptions {
  /** Aim for chunks of about this many tokens. */
  targetTokens: number;
  /** Never exceed this many tokens (a longer sentence is cut by words). */
  maxTokens: number;
}

export const DEFAULT_CHUNKING: ChunkingOptions = { targetTokens: 350, maxTokens: 512 };

/** Splits text into the largest pieces that fit: paragraphs, then sentences, then words. */
function pieces(text: string, maxTokens: number): string[] {
  if (countTokens(text) <= maxTokens) return [text];
  const paragraphs = text.split(/\n{2,}/).filter((p) => p.trim());
  if (paragraphs.length > 1) return paragraphs.flatMap((p) => pieces(p, maxTokens));
  const sentences = text.split(/(?<=[.!?])\s+/).filter((s) => s.trim());
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

/**
 * Chunks sections for retrieval: each chunk stays inside one section (so it
 * carries that section's name), packs whole paragraphs up to the target size,
 * and never exceeds the maximum. Pure and deterministic.
 */
export function chunkSections(
  sections: SectionText[],
  opts: ChunkingOptions = DEFAULT_CHUNKING,
): ChunkDraft[] {
  const chunks: ChunkDraft[] = [];
  for (const section of sections) {
    const parts = pieces(section.markdown.trim(), opts.maxTokens);
    let buffer = '';
    let bufferTokens = 0;
    const flush = () => {
      const content = buffer.trim();
      if (content) {
        chunks.push({
          section_id: section.id,
          section_name: section.section_name,
          section_slug: section.section_slug,
          content,
          content_tokens: countTokens(content),
          order_in_doc: chunks.length,
        });
      }
      buffer = '';
      bufferTokens = 0;
    };
    for (const part of parts) {
      const tokens = countTokens(part);
      if (bufferTokens > 0 && bufferTokens + tokens > opts.targetTokens) flush();
      buffer = buffer ? `${buffer}\n\n${part}` : part;
      bufferTokens += tokens;
    }
    flush();
  }
  return chunks;
}
