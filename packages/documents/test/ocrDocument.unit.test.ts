import { describe, expect, it } from 'vitest';
import { tinyPng } from '@reports/test-support';
import {
  documentFromOcr,
  richAnnotation,
  sectionsFromPages,
  type OcrDocumentPage,
  type OcrPageImage,
} from '../src/parse/ocrDocument.js';

const RICH = {
  image_type: 'photo',
  summary: 'Front elevation of a semi-detached house with a bay window and a tiled roof.',
  entities: ['bay window', 'tiled roof'],
};

function image(
  id: string,
  annotation: Record<string, unknown> | null = RICH,
  bytes = tinyPng(),
): OcrPageImage & { mime_type: string; bbox: null } {
  return { id, bytes, mime_type: 'image/png', bbox: null, annotation };
}

function result(pages: OcrDocumentPage[], annotated = true) {
  return { pages, provider: 'mistral', model: 'mistral-ocr-latest', cost_cents: 1, annotated };
}

const surveyPages: OcrDocumentPage[] = [
  {
    index: 0,
    markdown: [
      'Prepared for Ms A. Buyer',
      '',
      '# 1 Summary',
      '',
      'The property is in fair condition.',
      '- Roof: slate',
      '- Walls: brick',
      '',
      '![img-0.png](img-0.png)',
      '',
      '## 1.1 Costs',
      '',
      '| Item | Cost |',
      '| --- | --- |',
      '| Roof repair | £2,000 |',
      '| Repointing | £800 |',
    ].join('\n'),
    images: [image('img-0.png')],
  },
  {
    index: 1,
    markdown:
      'Continued costs narrative.\n\n# 2 Roof\n\nSlates slipped ![img-1.png](img-1.png) at the rear.',
    images: [image('img-1.png', { image_type: 'photo', summary: 'Slates.' }), image('img-2.png')],
  },
];

describe('sections from OCR pages', () => {
  it('splits at markdown headings and keeps levels, page ranges and line breaks', () => {
    const sections = sectionsFromPages(surveyPages);
    expect(sections.map((s) => [s.name, s.level, s.page_start, s.page_end])).toEqual([
      [null, 0, 1, 1],
      ['1 Summary', 1, 1, 1],
      ['1.1 Costs', 2, 1, 2],
      ['2 Roof', 1, 2, 2],
    ]);
    expect(sections[1]!.parts).toEqual([
      'The property is in fair condition.\n- Roof: slate\n- Walls: brick',
    ]);
  });

  it('keeps GFM tables as tables, with cells, and in the section text', () => {
    const [, , costs] = sectionsFromPages(surveyPages);
    expect(costs!.tables).toEqual([
      {
        rows: [
          ['Item', 'Cost'],
          ['Roof repair', '£2,000'],
          ['Repointing', '£800'],
        ],
        markdown: '| Item | Cost |\n| --- | --- |\n| Roof repair | £2,000 |\n| Repointing | £800 |',
        page_number: 1,
      },
    ]);
    expect(costs!.parts[0]).toContain('| Roof repair | £2,000 |');
  });

  it('places each image where the markdown refers to it, and an unreferenced one at the end of its page', () => {
    const sections = sectionsFromPages(surveyPages);
    expect(sections[1]!.figures).toEqual([{ imageId: 'img-0.png', page: 1 }]);
    expect(sections[3]!.figures).toEqual([
      { imageId: 'img-1.png', page: 2 },
      { imageId: 'img-2.png', page: 2 },
    ]);
    expect(sections[3]!.parts).toEqual(['Slates slipped at the rear.']);
  });
});

describe('the markdown of OCR pages, read by a CommonMark + GFM parser', () => {
  const page = (markdown: string): OcrDocumentPage => ({ index: 0, markdown, images: [] });

  it('takes a # inside a code fence as code, not as a heading', () => {
    const sections = sectionsFromPages([
      page(
        ['# Services', '', '```sh', '# not a heading', 'make check', '```', '', 'Boiler ok.'].join(
          '\n',
        ),
      ),
    ]);
    expect(sections.map((s) => s.name)).toEqual([null, 'Services']);
    expect(sections[1]!.parts.join('\n\n')).toContain('# not a heading');
  });

  it('recognises a GFM table written without outer pipes', () => {
    const [, roof] = sectionsFromPages([
      page(['# Roof', '', 'Item | Cost', '--- | ---', 'Slates | £900'].join('\n')),
    ]);
    expect(roof!.tables.map((t) => t.rows)).toEqual([
      [
        ['Item', 'Cost'],
        ['Slates', '£900'],
      ],
    ]);
  });

  it('keeps a line that starts with a pipe but has no delimiter row as text, not a table', () => {
    const [, notes] = sectionsFromPages([page('# Notes\n\n| this is a remark, not a table')]);
    expect(notes!.tables).toEqual([]);
    expect(notes!.parts).toEqual(['| this is a remark, not a table']);
  });

  it('reads setext headings and CRLF line ends', () => {
    const sections = sectionsFromPages([page('Summary\r\n=======\r\n\r\nFair condition.\r\n')]);
    expect(sections.map((s) => [s.name, s.level])).toEqual([
      [null, 0],
      ['Summary', 1],
    ]);
    expect(sections[1]!.parts).toEqual(['Fair condition.']);
  });
});

describe('the rich-annotation rule for OCR figures', () => {
  it('keeps a typed annotation with a real summary', () => {
    expect(richAnnotation(RICH, 'mistral')).toMatchObject({
      source: 'mistral',
      annotation_json: RICH,
      score: expect.any(Number),
    });
  });

  it('leaves a thin, missing or malformed one for the annotate stage', () => {
    expect(richAnnotation(null, 'mistral')).toBeNull();
    expect(richAnnotation({ image_type: 'photo', summary: 'Slates.' }, 'mistral')).toBeNull();
    expect(richAnnotation({ summary: RICH.summary, entities: [] }, 'mistral')).toBeNull();
    expect(richAnnotation({ ...RICH, entities: 'roof' }, 'mistral')).toBeNull();
  });
});

describe('a PDF read by a whole-document OCR engine', () => {
  it('becomes named sections with slugs, tables and figures, rich annotations kept by figure order', async () => {
    const { doc, annotations } = await documentFromOcr(
      'pdf',
      Buffer.from('%PDF'),
      result(surveyPages),
    );
    expect(doc.sections.map((s) => [s.name, s.slug, s.level])).toEqual([
      ['Introduction', 'introduction', 0],
      ['1 Summary', '1-summary', 1],
      ['1.1 Costs', '11-costs', 2],
      ['2 Roof', '2-roof', 1],
    ]);
    expect(doc.sections[2]!.markdown).toContain('Continued costs narrative.');
    expect(doc.tables).toHaveLength(1);
    expect(doc.tables[0]).toMatchObject({ section_order: 2, order: 0, page_number: 1 });
    expect(doc.figures.map((f) => [f.order, f.section_order, f.page_number, f.mime_type])).toEqual([
      [0, 1, 1, 'image/png'],
      [1, 3, 2, 'image/png'],
      [2, 3, 2, 'image/png'],
    ]);
    expect([...annotations.keys()]).toEqual([0, 2]);
    expect(doc.page_count).toBe(2);
    expect(doc.ocr_pages).toEqual([1, 2]);
  });

  it('leaves every figure pending when annotations were skipped', async () => {
    const { annotations } = await documentFromOcr(
      'pdf',
      Buffer.from('%PDF'),
      result(surveyPages, false),
    );
    expect(annotations.size).toBe(0);
  });

  it('drops images too small to be figures and images without bytes', async () => {
    const { doc } = await documentFromOcr(
      'pdf',
      Buffer.from('%PDF'),
      result([
        {
          index: 0,
          markdown: '# Logo page\n\n![a](a) ![b](b)',
          images: [image('a', RICH, tinyPng(20, 20)), { ...image('b'), bytes: null }],
        },
      ]),
    );
    expect(doc.figures).toEqual([]);
    expect(doc.sections.map((s) => s.name)).toEqual(['Logo page']);
  });

  it('gives the same heading twice distinct slugs', async () => {
    const { doc } = await documentFromOcr(
      'pdf',
      Buffer.from('%PDF'),
      result([
        { index: 0, markdown: '# Notes\n\na\n\n# Notes\n\nb\n\n# Élévation\n\nc', images: [] },
      ]),
    );
    expect(doc.sections.map((s) => s.slug)).toEqual(['notes', 'notes-1', 'elevation']);
  });
});

describe('an image read by a whole-document OCR engine', () => {
  it('is itself the one figure, in the first section, with the engine’s rich annotation', async () => {
    const upload = tinyPng(200, 150);
    const { doc, annotations } = await documentFromOcr(
      'png',
      upload,
      result([
        {
          index: 0,
          markdown: '# Site plan\n\nNorth is up. ![img-0](img-0)',
          images: [image('img-0')],
        },
      ]),
    );
    expect(doc.figures).toHaveLength(1);
    expect(doc.figures[0]).toMatchObject({
      order: 0,
      section_order: 0,
      page_number: null,
      mime_type: 'image/png',
      width: 200,
      height: 150,
      ocr_text: '# Site plan\n\nNorth is up.',
    });
    expect(doc.figures[0]!.bytes).toBe(upload);
    expect(annotations.get(0)?.annotation_json).toEqual(RICH);
    expect(doc.sections[0]).toMatchObject({ name: 'Site plan', page_start: null });
  });

  it('is kept as a figure even with no text recognised', async () => {
    const { doc, annotations } = await documentFromOcr(
      'jpeg',
      tinyPng(),
      result([{ index: 0, markdown: '', images: [] }]),
    );
    expect(doc.sections.map((s) => s.name)).toEqual(['Introduction']);
    expect(doc.figures).toHaveLength(1);
    expect(doc.figures[0]!.mime_type).toBe('image/jpeg');
    expect(annotations.size).toBe(0);
  });
});
