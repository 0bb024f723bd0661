import { describe, expect, it } from 'vitest';
import type { ParsedDocument } from '@reports/documents';
import { withoutNulCharacters } from '../src/parse/parseStage.js';

describe('withoutNulCharacters', () => {
  it('takes U+0000 out of every text of a parsed document, which Postgres text cannot hold', () => {
    const doc: ParsedDocument = {
      kind: 'pdf',
      title: 'Sample\u0000 Report',
      page_count: 1,
      sections: [
        {
          name: 'Gar\u0000age',
          slug: 'gar\u0000age',
          level: 1,
          order: 0,
          markdown: 'Threshold is qua\u0000li\u0000ed loose.',
          page_start: 1,
          page_end: 1,
        },
      ],
      tables: [
        {
          section_order: 0,
          order: 0,
          page_number: 1,
          markdown: '| A\u0000 |\n| --- |',
          rows: [['A\u0000']],
        },
      ],
      figures: [],
      ocr_pages: [],
    };
    const clean = withoutNulCharacters(doc);
    expect(JSON.stringify(clean)).not.toContain('\\u0000');
    expect(clean.title).toBe('Sample Report');
    expect(clean.sections[0]).toMatchObject({
      name: 'Garage',
      slug: 'garage',
      markdown: 'Threshold is qualied loose.',
    });
    expect(clean.tables[0]!.rows).toEqual([['A']]);
  });
});
