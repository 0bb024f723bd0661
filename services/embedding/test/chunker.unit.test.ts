import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import {
  chunkDocument,
  chunkSections,
  indexedText,
  type SectionText,
} from '../src/chunking/chunker.js';
import { embeddingStatus } from '../src/embed/embedStage.js';

const section = (id: string, markdown: string, name = `Section ${id}`): SectionText => ({
  id,
  section_name: name,
  section_slug: name.toLowerCase().replace(/\s+/g, '-'),
  markdown,
  level: 1,
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
        content_type: 'text',
        table_id: null,
        figure_id: null,
        heading_path: 'Roof',
        content: 'The roof is sound.',
        content_tokens: countTokens('The roof is sound.'),
        order_in_doc: 0,
        page_start: null,
        page_end: null,
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

const at = (level: number, id: string, name: string, markdown = ''): SectionText => ({
  ...section(id, markdown, name),
  level,
});

describe('chunkDocument', () => {
  it('gives every chunk the path of headings above it, title first', () => {
    const chunks = chunkDocument({
      title: 'Inspection of 1 Main St',
      sections: [
        at(1, 'h', 'Heating', paragraph(60, 'heat')),
        at(2, 'f', 'Furnace', paragraph(60, 'burner')),
        at(1, 'p', 'Plumbing', paragraph(60, 'pipe')),
      ],
    });
    expect(chunks.map((c) => c.heading_path)).toEqual([
      'Inspection of 1 Main St > Heating',
      'Inspection of 1 Main St > Heating > Furnace',
      'Inspection of 1 Main St > Plumbing',
    ]);
    expect(indexedText(chunks[1]!)).toBe(
      `Inspection of 1 Main St > Heating > Furnace\n${paragraph(60, 'burner')}`,
    );
  });

  it('merges a label/value grid of tiny sections into its parent as labelled lines', () => {
    const chunks = chunkDocument({
      title: 'Report',
      sections: [
        at(1, 'e', '8: Electrical'),
        at(4, 'i', 'Information'),
        at(6, 'a', 'Device: Main Panel Location Device: Panel Capacity', 'Basement 200 AMP'),
        at(6, 'b', 'Branch Wiring', 'Copper'),
        at(1, 'r', '9: Roof', paragraph(60, 'shingle')),
      ],
    });
    expect(chunks).toHaveLength(2);
    expect(chunks[0]).toMatchObject({
      section_id: 'e',
      heading_path: 'Report > 8: Electrical',
      content:
        'Device: Main Panel Location Device: Panel Capacity: Basement 200 AMP\n\nBranch Wiring: Copper',
    });
    expect(chunks[1]!.heading_path).toBe('Report > 9: Roof');
  });

  it("cites the pages a merged chunk's text comes from, not only its section's", () => {
    const paged = (s: SectionText, page: number, end = page): SectionText => ({
      ...s,
      page_start: page,
      page_end: end,
    });
    const chunks = chunkDocument({
      title: 'Report',
      sections: [
        paged(at(1, 'r', 'Address Report', 'Lot 12, Elm Road.'), 1),
        paged(at(2, 's', 'Summary', 'Flood zone X.'), 2),
        paged(at(2, 'n', 'Snapshot', 'Parks: 16'), 2, 3),
        paged(at(1, 'p', 'Property', paragraph(60, 'fault')), 4),
      ],
    });
    expect(chunks.map((c) => [c.section_id, c.page_start, c.page_end])).toEqual([
      ['r', 1, 3],
      ['p', 4, 4],
    ]);
  });

  it('keeps a section with enough text of its own as its own chunk', () => {
    const chunks = chunkDocument({
      title: null,
      sections: [
        at(1, 'a', 'Roof', paragraph(80, 'roof')),
        at(2, 'b', 'Flashing', paragraph(80, 'lead')),
      ],
    });
    expect(chunks.map((c) => [c.section_id, c.heading_path])).toEqual([
      ['a', 'Roof'],
      ['b', 'Roof > Flashing'],
    ]);
  });

  it('opens the first child chunk with a parent line too short to stand alone', () => {
    const chunks = chunkDocument({
      title: null,
      sections: [
        at(1, 'a', 'Ceiling Surfaces', 'Location: Living Room'),
        at(2, 'b', 'Drywall Cracking', paragraph(80, 'crack')),
        at(2, 'c', 'Stains', paragraph(80, 'stain')),
      ],
    });
    expect(chunks.map((c) => [c.section_id, c.heading_path])).toEqual([
      ['b', 'Ceiling Surfaces > Drywall Cracking'],
      ['c', 'Ceiling Surfaces > Stains'],
    ]);
    expect(chunks[0]!.content.startsWith('Location: Living Room\n\ncrack')).toBe(true);
    // A summary of a sentence or two stays a chunk of its own, where it is found whole.
    const summary = chunkDocument({
      title: null,
      sections: [
        at(1, 'a', 'Block B', paragraph(30, 'summary')),
        at(2, 'b', 'East Wall', paragraph(80, 'wall')),
      ],
    });
    expect(summary.map((c) => [c.section_id, c.heading_path])).toEqual([
      ['a', 'Block B'],
      ['b', 'Block B > East Wall'],
    ]);
  });

  it('never separates a label from the value after it, even at the size limit', () => {
    const md = `${paragraph(150, 'note')}\n\nWater heater approximate age:\n\n11 years`;
    const chunks = chunkDocument(
      { title: null, sections: [at(1, 'w', 'Water heater', md)] },
      { targetTokens: 150, maxTokens: 200 },
    );
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.at(-1)!.content.endsWith('Water heater approximate age:\n\n11 years')).toBe(true);
    expect(chunks.filter((c) => c.content.endsWith(':'))).toEqual([]);
  });

  it('splits a long paragraph at line ends before sentences, keeping "Label: value" lines whole', () => {
    const lines = Array.from({ length: 80 }, (_, i) => `Item ${i} condition: needs repair soon`);
    const chunks = chunkDocument(
      { title: null, sections: [at(1, 's', 'Summary', lines.join('\n'))] },
      { targetTokens: 100, maxTokens: 120 },
    );
    expect(chunks.length).toBeGreaterThan(3);
    const out = chunks.flatMap((c) => c.content.split('\n').filter(Boolean));
    expect(out).toEqual(lines);
  });

  it('makes a table into table chunks with its header row in each, out of the text', () => {
    const header = '| Item | S | R | NP |\n| --- | --- | --- | --- |';
    const rows = Array.from({ length: 60 }, (_, i) => `| 1.${i} Window and frame ${i} |  | x |  |`);
    const table = `${header}\n${rows.join('\n')}`;
    const chunks = chunkDocument(
      {
        title: 'Report',
        sections: [at(1, 'i', 'Interior', `${paragraph(50, 'wall')}\n\n${table}\n\nEnd note.`)],
        tables: [{ id: 't1', section_id: 'i', markdown: table }],
      },
      { targetTokens: 200 },
    );
    const text = chunks.filter((c) => c.content_type === 'text');
    const tables = chunks.filter((c) => c.content_type === 'table');
    expect(text.map((c) => c.content).join('\n')).not.toContain('| 1.0 Window');
    expect(text.at(-1)!.content).toContain('End note.');
    expect(tables.length).toBeGreaterThan(1);
    for (const t of tables) {
      expect(t).toMatchObject({
        table_id: 't1',
        figure_id: null,
        heading_path: 'Report > Interior',
      });
      expect(t.content.startsWith(header)).toBe(true);
    }
    expect(tables.flatMap((t) => t.content.split('\n').slice(2))).toEqual(rows);
  });

  it('leads each piece of a table with the short paragraph above it, not with a long one', () => {
    const table = (n: number) =>
      [
        '| Aspect | Details |',
        '| --- | --- |',
        ...Array.from({ length: n }, (_, i) => `| Aspect ${i} | detail ${i} |`),
      ].join('\n');
    const small = table(2);
    const large = table(60);
    const other = table(3).replace('Aspect |', 'Item |');
    const lead = 'Sample North (Town A & Town B) Summary: rural towns; affordable homes.';
    const chunks = chunkDocument(
      {
        title: 'Report',
        sections: [
          at(
            1,
            'a',
            'Regions',
            [paragraph(50, 'coast'), lead, large, other, paragraph(60, 'inland'), small].join(
              '\n\n',
            ),
          ),
        ],
        tables: [
          { id: 'large', section_id: 'a', markdown: large },
          { id: 'other', section_id: 'a', markdown: other },
          { id: 'small', section_id: 'a', markdown: small },
        ],
      },
      { targetTokens: 200 },
    );
    const pieces = (id: string) => chunks.filter((c) => c.table_id === id).map((c) => c.content);
    expect(pieces('large').length).toBeGreaterThan(1);
    for (const piece of pieces('large'))
      expect(piece.startsWith(`${lead}\n\n| Aspect |`)).toBe(true);
    // Right below another table: nothing leads it in, the first table's paragraph least of all.
    expect(pieces('other')).toEqual([other]);
    // Below a long paragraph: that is text of its own, not a table's lead-in.
    expect(pieces('small')).toEqual([small]);
    expect(
      chunks
        .filter((c) => c.content_type === 'text')
        .map((c) => c.content)
        .join('\n'),
    ).toContain(lead);
  });

  it('makes a figure with a caption or an annotation into a figure chunk, and skips a bare one', () => {
    const chunks = chunkDocument({
      title: 'Report',
      sections: [at(1, 'x', 'Exterior', paragraph(50, 'brick'))],
      figures: [
        // A caption that only repeats its section's title is no caption of its own.
        { id: 'f0', section_id: 'x', page_number: 3, caption: ' exterior ', summary: null },
        {
          id: 'f1',
          section_id: 'x',
          page_number: 4,
          caption: 'Photo 3: cracked brick veneer',
          summary: 'A close photo of a stepped crack in brick veneer beside a window.',
        },
        { id: 'f2', section_id: 'x', page_number: 4, caption: null, summary: null },
      ],
    });
    const figures = chunks.filter((c) => c.content_type === 'figure');
    expect(figures).toEqual([
      expect.objectContaining({
        figure_id: 'f1',
        table_id: null,
        section_id: 'x',
        heading_path: 'Report > Exterior',
        content:
          'Figure, page 4: Photo 3: cracked brick veneer\nA close photo of a stepped crack in brick veneer beside a window.',
      }),
    ]);
    expect(chunks.map((c) => c.order_in_doc)).toEqual(chunks.map((_, i) => i));
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
