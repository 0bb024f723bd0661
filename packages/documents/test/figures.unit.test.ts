import { describe, expect, it } from 'vitest';
import {
  MIN_FIGURE_PIXELS,
  MIN_FIGURE_SIDE,
  figureImage,
  isFigureSized,
  makeThumbnail,
  parseDocument,
  probeImage,
} from '../src/index.js';
import {
  buildDocxWithImages,
  buildHtmlWithImages,
  buildMhtml,
  buildPdfWithImages,
  buildPhoto,
  buildPhotoPagesPdf,
  buildThumbnailPdf,
  PHOTO_PAGE_CAPTIONS,
  buildPhotoAs,
  sampleReportSpec,
} from '@reports/test-support';

const spec = sampleReportSpec({ sections: 3 });

describe('the figure size rule', () => {
  it('keeps images with both sides of at least 64 px and 128x128 worth of pixels', () => {
    expect(isFigureSized(128, 128)).toBe(true);
    expect(isFigureSized(640, 64)).toBe(true);
    expect(isFigureSized(MIN_FIGURE_SIDE, MIN_FIGURE_PIXELS / MIN_FIGURE_SIDE)).toBe(true);
  });

  it('drops icons, bullets, spacer gifs and thin rules', () => {
    expect(isFigureSized(16, 16)).toBe(false);
    expect(isFigureSized(1, 1)).toBe(false);
    expect(isFigureSized(800, 4)).toBe(false);
    expect(isFigureSized(100, 100)).toBe(false);
  });
});

describe('figure images', () => {
  it('keeps PNG, JPEG and WEBP bytes as they are and knows their size from the header', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const bytes = await buildPhotoAs(format, 300, 200);
      const image = await figureImage(bytes);
      expect(image).toMatchObject({ mime_type: `image/${format}`, width: 300, height: 200 });
      expect(image?.bytes).toBe(bytes);
    }
  });

  it('never renders SVG (it could name files or URLs) and ignores unreadable bytes', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="500" height="500"><image href="http://127.0.0.1:9/x.png" width="500" height="500"/></svg>',
    );
    expect(await figureImage(svg)).toBeNull();
    expect(await figureImage(Buffer.from('not an image at all'))).toBeNull();
  });

  it('makes WEBP thumbnails that fit in 512 px and never enlarges', async () => {
    const big = await makeThumbnail(await buildPhoto(1600, 900));
    expect(big).toMatchObject({ mime_type: 'image/webp', width: 512, height: 288 });
    expect((await probeImage(big.bytes))?.format).toBe('webp');
    const small = await makeThumbnail(await buildPhoto(200, 150));
    expect(small).toMatchObject({ width: 200, height: 150 });
  });
});

describe('figures out of documents', () => {
  it('HTML: data: images become figures in their section, with alt text; the icon does not', async () => {
    const doc = await parseDocument('html', await buildHtmlWithImages(spec));
    expect(
      doc.figures.map((f) => [f.section_order, f.width, f.height, f.alt, f.mime_type]),
    ).toEqual([
      [0, 640, 480, 'Front elevation', 'image/png'],
      [0, 480, 360, 'Rear garden', 'image/png'],
    ]);
    expect(doc.figures.map((f) => f.order)).toEqual([0, 1]);
    expect(doc.sections[0]!.markdown).toContain('Front elevation');
    expect(doc.sections[0]!.markdown).not.toContain('data:');
  });

  it('MHTML: images resolve by cid: and by Content-Location (relative and absolute)', async () => {
    const doc = await parseDocument('mhtml', await buildMhtml(spec));
    expect(doc.sections.map((s) => s.name)).toEqual(spec.sections.map((s) => s.heading));
    expect(doc.title).toBe(spec.title);
    expect(doc.figures.map((f) => [f.width, f.height, f.alt])).toEqual([
      [640, 480, 'Front elevation'],
      [480, 360, 'Rear garden'],
    ]);
    expect(doc.tables).toHaveLength(1);
  });

  it('DOCX: embedded pictures become figures with their description as alt text', async () => {
    const doc = await parseDocument('docx', await buildDocxWithImages(spec));
    expect(doc.sections.map((s) => s.name)).toEqual(spec.sections.map((s) => s.heading));
    expect(doc.figures.map((f) => [f.section_order, f.width, f.height])).toEqual([
      [0, 640, 480],
      [0, 480, 360],
    ]);
    expect(doc.figures[0]!.alt).toBe('Front elevation');
  });

  it('PDF: embedded images become PNG figures with their page, in the section they are drawn in', async () => {
    const doc = await parseDocument('pdf', await buildPdfWithImages(spec));
    expect(doc.sections.map((s) => s.name)).toEqual(spec.sections.map((s) => s.heading));
    expect(
      doc.figures.map((f) => [f.section_order, f.page_number, f.width, f.height, f.mime_type]),
    ).toEqual([
      [0, 1, 640, 480, 'image/png'],
      [0, 1, 480, 360, 'image/png'],
    ]);
    expect((await probeImage(doc.figures[0]!.bytes))?.format).toBe('png');
    expect(doc.ocr_pages).toEqual([]);
  });

  it('PDF: keeps photo thumbnails of few pixels with their captions, not a logo of as many', async () => {
    const doc = await parseDocument('pdf', await buildThumbnailPdf());
    expect(doc.figures.map((f) => [f.width, f.height, f.alt])).toEqual([
      [60, 60, 'Photo 1'],
      [60, 60, 'Photo 2'],
      [60, 60, 'Photo 3'],
    ]);
  });

  it('PDF: keeps each photo of a page captioned in columns, not a logo drawn small on the other pages, nor a flat panel', async () => {
    const doc = await parseDocument('pdf', await buildPhotoPagesPdf());
    // The logo (drawn large on the cover only) runs small on every other page: it is furniture.
    // The panel is one flat colour. The photos at the top of the second photo page stand between
    // two rows of captions that are read as one table.
    expect(doc.figures.map((f) => [f.page_number, f.width, f.height, f.alt])).toEqual(
      PHOTO_PAGE_CAPTIONS.map((caption, i) => [i < 4 ? 2 : 3, 235, 176, caption]),
    );
  });
});
