import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../src/index.js';
import { listZipEntries } from '../src/parse/zip.js';
import {
  buildHtml,
  buildPdf,
  corruptPdf,
  notADocx,
  sampleReportSpec,
  truncatedPdf,
} from '@reports/test-support';

describe('document fixtures', () => {
  it('sampleReportSpec is deterministic per seed and report-like', () => {
    const a = sampleReportSpec();
    expect(sampleReportSpec()).toEqual(a);
    expect(sampleReportSpec({ seed: 2 })).not.toEqual(a);
    expect(a.sections.map((s) => s.heading)).toEqual([
      'Roof',
      'Walls and Façade',
      'Damp',
      'Electrics',
      'Plumbing',
      'Valuation',
    ]);
    expect(a.sections.every((s) => s.paragraphs.length === 2)).toBe(true);
    expect(a.sections.filter((s) => s.table).length).toBe(2);
    expect(a.sections[0]?.table?.[0]).toEqual(['Room', 'Dimensions', 'Condition']);
    const big = sampleReportSpec({ sections: 10, paragraphsPerSection: 1, seed: 4 });
    expect(big.sections).toHaveLength(10);
    expect(big.sections.at(-1)?.heading).toBe('Valuation');
  });

  it('buildHtml and buildPdf are byte-for-byte deterministic', async () => {
    const spec = sampleReportSpec();
    expect(buildHtml(spec).equals(buildHtml(spec))).toBe(true);
    expect((await buildPdf(spec)).equals(await buildPdf(spec))).toBe(true);
    expect(corruptPdf().equals(corruptPdf())).toBe(true);
  });

  it('buildPdf pads to the requested number of pages exactly', async () => {
    const pdf = await buildPdf(sampleReportSpec(), { pages: 7 });
    expect((await parseDocument('pdf', pdf)).page_count).toBe(7);
  });

  it('truncatedPdf is the first 60% of a report PDF', async () => {
    const full = await buildPdf(sampleReportSpec());
    const cut = await truncatedPdf();
    expect(cut.length).toBe(Math.floor(full.length * 0.6));
    expect(full.subarray(0, cut.length).equals(cut)).toBe(true);
  });

  it('notADocx is a valid stored zip holding hello.txt', () => {
    const zip = notADocx();
    const listing = listZipEntries(zip);
    expect(listing).toEqual({
      ok: true,
      zip64: false,
      entries: [
        { name: 'hello.txt', compressedSize: 13, uncompressedSize: 13, method: 0, localOffset: 0 },
      ],
    });
    const data = zip.subarray(30 + 'hello.txt'.length, 30 + 'hello.txt'.length + 13);
    expect(data.toString()).toBe('hello, world\n');
    expect(zip.readUInt32LE(14)).toBe(crc32(data) >>> 0);
  });
});
