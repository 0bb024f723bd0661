import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { chunkSections, type SectionText } from '../src/chunking/chunker.js';
import { embeddingStatus } from '../src/embed/embedStage.js';

const section = (id: string, markdown: string, name = `Section ${id}`): SectionText => ({
  id,
  section_name: name,
  section_slug: name.toLowerCase().replace(/\s+/g, '-'),
  markdown,
});
const paragraph = (words: number, word = 'damp') =>
  Array.from({ length: words }, (_, i) => `${word}${i}`).join(' ') + '.';

describe('chunkSections', () => {
  it('keeps a short section as one chunk carrying its name and slug', () => {
    const chunks = chunkSections([section('a', 'The roof is sound.', 'Roof')]);
    expect(chunks).toEqual([
      {
        section_id: 'a',
        section_name: 'Roof',
        section_slug: 'roof',
        content: 'The roof is sound.',
        content_tokens: countTokens('The roof is sound.'),
        order_in_doc: 0,
      },
    ]);
  });

  it('never lets a chunk cross a section boundary, and numbers chunks across the document', () => {
    const chunks = chunkSections([
      section('a', 'First.'),
      section('b', 'Second.'),
      section('c', 'Third.'),
    ]);
    expect(chunks.map((c) => [c.section_id, c.order_in_doc])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ]);
  });

  it('packs whole paragraphs up to the target size', () => {
    const md = [paragraph(60), paragraph(60), paragraph(60), paragraph(60)].join('\n\n');
    const chunks = chunkSections([section('a', md)], { targetTokens: 200, maxTokens: 400 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks)
      expect(c.content.split('\n\n').every((p) => p.endsWith('.'))).toBe(true);
    expect(chunks.map((c) => c.content).join('\n\n')).toBe(md);
  });

  it('splits a paragraph longer than the maximum by sentences, then by words, never exceeding it', () => {
    const longSentence = paragraph(900);
    const chunks = chunkSections([section('a', `${paragraph(20)} ${longSentence}`)], {
      targetTokens: 100,
      maxTokens: 150,
    });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.content_tokens).toBeLessThanOrEqual(150);
  });

  it('skips empty sections', () => {
    expect(
      chunkSections([section('a', '   \n\n  '), section('b', 'Text.')]).map((c) => c.section_id),
    ).toEqual(['b']);
  });

  it('is deterministic', () => {
    const input = [section('a', [paragraph(300), paragraph(300)].join('\n\n'))];
    expect(chunkSections(input)).toEqual(chunkSections(input));
  });
});

describe('embeddingStatus', () => {
  it('names the outcome of an embed run', () => {
    expect(embeddingStatus(10, 10, false)).toBe('complete');
    expect(embeddingStatus(10, 3, false)).toBe('partial');
    expect(embeddingStatus(10, 0, false)).toBe('failed');
    expect(embeddingStatus(10, 0, true)).toBe('skipped');
    expect(embeddingStatus(0, 0, false)).toBe('complete');
  });
});
