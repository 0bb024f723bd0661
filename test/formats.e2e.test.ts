import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedSection } from '@reports/contracts';
import { createObjectStore } from '@reports/platform';
import {
  HOSTILE_FILENAMES,
  buildDocxWithImages,
  buildHtmlWithImages,
  buildMhtml,
  buildPdfWithImages,
  buildPhotoAs,
  buildScannedReportPdf,
  corruptPdf,
  docxNamingUrl,
  docxXmlBomb,
  docxZipBomb,
  docxZipSlip,
  encryptedPdf,
  htmlNamingUrls,
  mhtmlCutShort,
  mhtmlWithoutBoundary,
  pdfWithActions,
  pdfWithDeepNesting,
  pdfWithHugePageCount,
  pdfWithPageTreeCycle,
  pngPixelBomb,
  sampleReportSpec,
  scanPagesPng,
  truncatedPdf,
  type ScanBlock,
} from '@reports/test-support';
import { startSystem, type RunningSystem } from './support/system.js';
import {
  freshIp,
  getJson,
  readEvents,
  signIn,
  upload,
  waitForStatus,
  type Session,
} from './support/client.js';

let system: RunningSystem;
let alice: Session;
let canary: Server;
let canaryUrl: string;
const canaryHits: string[] = [];
const spec = sampleReportSpec({ sections: 3 });
const headings = spec.sections.map((s) => s.heading);
const scanBlocks: ScanBlock[] = [
  { heading: 'Roof' },
  { paragraph: 'The main roof slopes show a number of slipped and cracked slates.' },
  {
    table: [
      ['Room', 'Condition'],
      ['Hallway', 'Poor'],
      ['Study', 'Fair'],
    ],
  },
  { heading: 'Damp' },
  { paragraph: 'Moisture meter readings were dry at the time of our inspection.' },
];

beforeAll(async () => {
  canary = createServer((req, res) => {
    canaryHits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
  system = await startSystem();
  alice = await signIn(system, 'formats@example.com');
});
afterAll(async () => {
  await system?.stop();
  await new Promise((resolve) => canary?.close(resolve));
});

/** Alice from another client address: the upload route allows 20 an hour per address. */
function aliceFromNewIp(): Session {
  const ip = freshIp();
  return {
    ...alice,
    ip,
    headers: (extra = {}) => ({ ...alice.headers(extra), 'x-forwarded-for': ip }),
  };
}

/** Uploads a file and follows it to the end; returns the report id and how it ended. */
async function ingest(bytes: Buffer, filename: string, type: string) {
  const session = aliceFromNewIp();
  const res = await upload(system, session, { bytes, filename, type });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const events = await readEvents(system, session, res.body.id);
  return { id: res.body.id, last: events.at(-1)?.event };
}

async function outputOf(id: string) {
  const sections = await getJson<ParsedSection[]>(system, alice, `/ingest/${id}/sections`);
  const { rows: figures } = await system.db.pool.query<{
    mime_type: string;
    width: number;
    height: number;
    page_number: number | null;
    section_name: string | null;
    annotation_source: string;
    object_key: string;
    thumbnail_key: string | null;
  }>('SELECT * FROM figures WHERE report_id = $1 ORDER BY order_in_doc', [id]);
  const { rows: tables } = await system.db.pool.query<{ cells: string[][] }>(
    'SELECT cells FROM report_tables WHERE report_id = $1 ORDER BY order_in_doc',
    [id],
  );
  return { sections: sections.body, figures, tables };
}

describe('every format, upload to ready', () => {
  it.each([
    [
      'PDF with a text layer and photos',
      'report.pdf',
      'application/pdf',
      () => buildPdfWithImages(spec),
      headings,
      2,
      0,
    ],
    [
      'HTML with data: images',
      'report.html',
      'text/html',
      () => buildHtmlWithImages(spec),
      headings,
      2,
      1,
    ],
    [
      'MHTML (saved web page)',
      'report.mhtml',
      'multipart/related',
      () => buildMhtml(spec),
      headings,
      2,
      1,
    ],
    [
      'DOCX with pictures',
      'report.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      () => buildDocxWithImages(spec),
      headings,
      2,
      0,
    ],
    [
      'scanned PDF (OCR)',
      'scan.pdf',
      'application/pdf',
      () => buildScannedReportPdf(scanBlocks),
      ['Roof', 'Damp'],
      0,
      1,
    ],
    [
      'PNG scan (OCR)',
      'scan.png',
      'image/png',
      async () => (await scanPagesPng(scanBlocks))[0]!,
      ['Roof', 'Damp'],
      1,
      1,
    ],
    ['JPEG photo', 'photo.jpg', 'image/jpeg', () => buildPhotoAs('jpeg', 800, 600), [], 1, 0],
    ['WEBP photo', 'photo.webp', 'image/webp', () => buildPhotoAs('webp', 800, 600), [], 1, 0],
  ] as const)('%s', async (_name, filename, type, build, named, figureCount, tableCount) => {
    const { id, last } = await ingest(await build(), filename, type);
    expect(last).toBe('ReportReady');
    const out = await outputOf(id);
    expect(out.sections.filter((s) => s.level > 0).map((s) => s.section_name)).toEqual(named);
    expect(out.figures).toHaveLength(figureCount);
    expect(out.tables).toHaveLength(tableCount);
    for (const f of out.figures) {
      // Annotated by the local heuristic after parse left them pending.
      expect(f.annotation_source).toBe('local');
      expect(
        f.object_key.startsWith(`tenants/${alice.user.personal_tenant_id}/reports/${id}/figures/`),
      ).toBe(true);
      expect(f.thumbnail_key).toMatch(/\.thumb\.webp$/);
    }
    const status = await waitForStatus(system, alice, id, 'ready');
    expect(status.ingestion_error).toBeNull();
  });
});

describe('nothing named inside a document is fetched', () => {
  it('HTML, MHTML, DOCX and PDF naming a canary server on 127.0.0.1 reach ready with zero requests to it', async () => {
    const docs: [Buffer, string, string][] = [
      [htmlNamingUrls(canaryUrl), 'canary.html', 'text/html'],
      [
        await buildMhtml(spec, {
          extraHead: `<link rel="stylesheet" href="${canaryUrl}/mhtml.css">`,
          extraHtml: `<img src="${canaryUrl}/not-in-archive.png" alt="remote"><iframe src="${canaryUrl}/frame"></iframe>`,
        }),
        'canary.mhtml',
        'multipart/related',
      ],
      [
        await docxNamingUrl(canaryUrl),
        'canary.docx',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ],
      [pdfWithActions(canaryUrl), 'canary.pdf', 'application/pdf'],
    ];
    for (const [bytes, filename, type] of docs) {
      const { last } = await ingest(bytes, filename, type);
      expect(last, filename).toBe('ReportReady');
    }
    expect(canaryHits).toEqual([]);
  });
});

/** Peak resident memory (VmHWM) of the ingestion service, read from /proc. */
async function ingestionPeakRssMb(): Promise<number | null> {
  const { readdir } = await import('node:fs/promises');
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('services/ingestion/dist/main.js')) continue;
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
      return kb / 1024;
    } catch {
      // the process ended meanwhile
    }
  }
  return null;
}

describe('bad input', () => {
  const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  it.each([
    ['a truncated PDF', 'application/pdf', () => truncatedPdf(), /PDF is damaged/],
    ['a corrupt PDF', 'application/pdf', () => corruptPdf(), /PDF is damaged/],
    ['an encrypted PDF', 'application/pdf', () => encryptedPdf(), /PDF is encrypted/],
    [
      'a PDF whose page tree loops',
      'application/pdf',
      () => pdfWithPageTreeCycle(),
      /circular reference/,
    ],
    [
      'a PDF nested 100000 arrays deep',
      'application/pdf',
      () => pdfWithDeepNesting(),
      /PDF is damaged/,
    ],
    [
      'a PNG pixel bomb',
      'image/png',
      () => pngPixelBomb(),
      /100000x100000 pixels, more than the 40 megapixels allowed/,
    ],
    [
      'a DOCX zip bomb',
      docxType,
      () => docxZipBomb(),
      /expands to 1024 MB, more than the 256 MB allowed/,
    ],
    ['a DOCX XML entity bomb', docxType, () => docxXmlBomb(), /declares XML entities/],
    ['a DOCX with zip-slip entry names', docxType, () => docxZipSlip(), /not a safe archive/],
    [
      'an MHTML file without a boundary',
      'multipart/related',
      () => mhtmlWithoutBoundary(),
      /no MIME boundary/,
    ],
    [
      'an MHTML file cut short',
      'multipart/related',
      async () => mhtmlCutShort(await buildMhtml(spec)),
      /ends early/,
    ],
  ] as const)('%s ends failed with a clear ingestion_error', async (_name, type, build, reason) => {
    const { id, last } = await ingest(await build(), 'hostile', type);
    expect(last).toBe('StageFailed');
    const status = await waitForStatus(system, alice, id, 'failed');
    expect(status.ingestion_error).toMatch(reason);
  });

  it('a PDF claiming a billion pages is read for the page it has', async () => {
    const { last } = await ingest(pdfWithHugePageCount(), 'count.pdf', 'application/pdf');
    expect(last).toBe('ReportReady');
  });

  it('wrong magic bytes for the declared type answer 415', async () => {
    const res = await upload(system, aliceFromNewIp(), {
      bytes: await buildPhotoAs('png', 200, 200),
      filename: 'photo.pdf',
      type: 'application/pdf',
    });
    expect(res.status).toBe(415);
  });

  it('hostile file names are accepted as data: ready, and stored only under the report', async () => {
    const html = await buildHtmlWithImages(spec);
    for (const filename of HOSTILE_FILENAMES) {
      const { last } = await ingest(html, filename, 'text/html');
      expect(last, filename).toBe('ReportReady');
    }
  });

  it('the ingestion service stayed within bounded memory, and nothing was stored outside report prefixes', async () => {
    const peak = await ingestionPeakRssMb();
    expect(peak).not.toBeNull();
    expect(peak!).toBeLessThan(1536);
    const store = createObjectStore({ url: system.env.OBJECT_STORE_URL! });
    const keys = await store.list('');
    expect(keys.length).toBeGreaterThan(0);
    const { rows } = await system.db.pool.query<{ id: string; tenant_id: string }>(
      'SELECT id, tenant_id FROM reports',
    );
    const prefixes = rows.map((r) => `tenants/${r.tenant_id}/reports/${r.id}/`);
    for (const key of keys)
      expect(
        prefixes.some((p) => key.startsWith(p)),
        key,
      ).toBe(true);
  });
});
