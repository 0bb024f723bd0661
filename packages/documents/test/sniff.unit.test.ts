import { describe, expect, it } from 'vitest';
import { MIME_BY_KIND, checkUploadKind, declaredKind, sniffDocumentKind } from '../src/index.js';
import { buildDocx, buildHtml, buildPdf, notADocx, sampleReportSpec } from '@reports/test-support';

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');
const bytes = (...b: number[]): Buffer => Buffer.from(b);

const PNG = Buffer.concat([
  bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
  ascii('\0\0\0\rIHDR'),
]);
const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46);
const WEBP = Buffer.concat([ascii('RIFF'), bytes(0x24, 0x00, 0x00, 0x00), ascii('WEBPVP8 ')]);
const MHTML = ascii(
  'From: <Saved by Blink>\r\n' +
    'Snapshot-Content-Location: https://example.com/report\r\n' +
    'Subject: Survey\r\n' +
    'Date: Tue, 3 Jun 2025 10:00:00 -0000\r\n' +
    'MIME-Version: 1.0\r\n' +
    'Content-Type: multipart/related;\r\n' +
    '\ttype="text/html";\r\n' +
    '\tboundary="----MultipartBoundary--abc"\r\n' +
    '\r\n' +
    '------MultipartBoundary--abc\r\n',
);

describe('sniffDocumentKind', () => {
  it('recognises a PDF at the start and after up to 1024 bytes of junk, not later', () => {
    expect(sniffDocumentKind(ascii('%PDF-1.7\n%\xe2\xe3\n1 0 obj'))).toBe('pdf');
    expect(sniffDocumentKind(Buffer.concat([Buffer.alloc(1000, 0x20), ascii('%PDF-1.4\n')]))).toBe(
      'pdf',
    );
    expect(sniffDocumentKind(Buffer.concat([Buffer.alloc(1024, 0x01), ascii('%PDF-1.4\n')]))).toBe(
      'pdf',
    );
    expect(
      sniffDocumentKind(Buffer.concat([Buffer.alloc(1025, 0x01), ascii('%PDF-1.4\n')])),
    ).toBeNull();
    expect(sniffDocumentKind(ascii('%PDF'))).toBeNull();
  });

  it('recognises PNG, JPEG and WEBP signatures', () => {
    expect(sniffDocumentKind(PNG)).toBe('png');
    expect(sniffDocumentKind(JPEG)).toBe('jpeg');
    expect(sniffDocumentKind(WEBP)).toBe('webp');
    expect(sniffDocumentKind(PNG.subarray(0, 7))).toBeNull();
    expect(sniffDocumentKind(bytes(0xff, 0xd8))).toBeNull();
    expect(
      sniffDocumentKind(Buffer.concat([ascii('RIFF'), bytes(0, 0, 0, 0), ascii('WAVEfmt ')])),
    ).toBeNull();
  });

  it('treats any zip as a DOCX candidate (the deep check is at parse time)', async () => {
    expect(sniffDocumentKind(await buildDocx(sampleReportSpec()))).toBe('docx');
    expect(sniffDocumentKind(notADocx())).toBe('docx');
    expect(sniffDocumentKind(ascii('PK\x05\x06'))).toBeNull(); // an empty zip has no local header
  });

  it('recognises MHTML by a multipart/related Content-Type in the leading headers', () => {
    expect(sniffDocumentKind(MHTML)).toBe('mhtml');
    expect(
      sniffDocumentKind(
        ascii('MIME-Version: 1.0\nContent-Type: MULTIPART/RELATED; boundary=x\n\n--x\n'),
      ),
    ).toBe('mhtml');
    // folded header value
    expect(
      sniffDocumentKind(
        ascii('Subject: a\r\nContent-Type:\r\n multipart/related; boundary=x\r\n\r\n'),
      ),
    ).toBe('mhtml');
    // a header block cut short by the 8 KB head still counts
    expect(
      sniffDocumentKind(ascii('From: x\r\nContent-Type: multipart/related; boundary="abc')),
    ).toBe('mhtml');
  });

  it('does not take other MIME messages or header-like text for MHTML', () => {
    expect(
      sniffDocumentKind(ascii('From: a@b.c\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n')),
    ).toBeNull();
    expect(sniffDocumentKind(ascii('Dear sir,\nContent-Type: multipart/related\n'))).toBeNull();
    expect(
      sniffDocumentKind(ascii('Subject: a\r\n\r\nContent-Type: multipart/related\r\n')),
    ).toBeNull();
  });

  it('recognises HTML openings, case-insensitively, after a BOM and whitespace', () => {
    expect(sniffDocumentKind(buildHtml(sampleReportSpec()))).toBe('html');
    for (const start of [
      '<!DOCTYPE html>',
      '<!doctype HTML>',
      '<HTML lang="en">',
      '<head>',
      '<body>',
      '<!-- saved page -->',
      '<meta charset="utf-8">',
      '<title>x</title>',
      '<div>',
      '<p>',
      '<P class="x">',
      '<h1>',
      '<h6>',
      '<table>',
    ]) {
      expect(sniffDocumentKind(ascii(start + '\n<p>hello</p>')), start).toBe('html');
    }
    expect(
      sniffDocumentKind(Buffer.concat([bytes(0xef, 0xbb, 0xbf), ascii(' \r\n\t<html>')])),
    ).toBe('html');
    expect(
      sniffDocumentKind(
        Buffer.concat([bytes(0xff, 0xfe), Buffer.from('\n<!DOCTYPE html><p>x', 'utf16le')]),
      ),
    ).toBe('html');
    const be = Buffer.from('<html><p>x', 'utf16le').swap16();
    expect(sniffDocumentKind(Buffer.concat([bytes(0xfe, 0xff), be]))).toBe('html');
    expect(sniffDocumentKind(ascii('<?xml version="1.0"?>\n<!DOCTYPE html><html>'))).toBe('html');
  });

  it('rejects text that is not HTML and HTML-looking bytes with NULs', () => {
    expect(sniffDocumentKind(ascii('hello <html>'))).toBeNull();
    expect(sniffDocumentKind(ascii('<pre>x</pre>'))).toBeNull();
    expect(sniffDocumentKind(ascii('<param>'))).toBeNull();
    expect(sniffDocumentKind(ascii('<h7>x'))).toBeNull();
    expect(sniffDocumentKind(ascii('<?xml version="1.0"?><svg/>'))).toBeNull();
    expect(sniffDocumentKind(ascii('<html>\0\0\0binary'))).toBeNull();
    expect(sniffDocumentKind(Buffer.alloc(0))).toBeNull();
    expect(sniffDocumentKind(bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1))).toBeNull(); // legacy .doc / encrypted Office
  });

  it('sniffs real fixture files by their first 8 KB', async () => {
    const pdf = await buildPdf(sampleReportSpec());
    expect(sniffDocumentKind(pdf.subarray(0, 8192))).toBe('pdf');
  });
});

describe('declaredKind', () => {
  it('maps content types, ignoring parameters and case', () => {
    expect(declaredKind('application/pdf', undefined)).toBe('pdf');
    expect(declaredKind('Application/PDF; charset=binary', 'x.docx')).toBe('pdf');
    expect(declaredKind('image/png', undefined)).toBe('png');
    expect(declaredKind('image/jpeg', undefined)).toBe('jpeg');
    expect(declaredKind('image/webp', undefined)).toBe('webp');
    expect(declaredKind('text/html; charset=utf-8', undefined)).toBe('html');
    expect(declaredKind(MIME_BY_KIND.docx, undefined)).toBe('docx');
    for (const m of ['multipart/related', 'message/rfc822', 'application/x-mimearchive'])
      expect(declaredKind(m, undefined)).toBe('mhtml');
  });

  it('uses the extension when the type is missing or application/octet-stream', () => {
    expect(declaredKind(undefined, 'survey.PDF')).toBe('pdf');
    expect(declaredKind('application/octet-stream', 'plan.png')).toBe('png');
    expect(declaredKind('', 'a.jpg')).toBe('jpeg');
    expect(declaredKind(undefined, 'a.jpeg')).toBe('jpeg');
    expect(declaredKind(undefined, 'a.webp')).toBe('webp');
    expect(declaredKind(undefined, 'a.mht')).toBe('mhtml');
    expect(declaredKind(undefined, 'a.mhtml')).toBe('mhtml');
    expect(declaredKind(undefined, 'a.htm')).toBe('html');
    expect(declaredKind(undefined, 'C:\\Users\\me\\report.html')).toBe('html');
    expect(declaredKind(undefined, 'report.docx')).toBe('docx');
  });

  it('is unknown when nothing is declared', () => {
    expect(declaredKind(undefined, undefined)).toBe('unknown');
    expect(declaredKind('application/octet-stream', 'report')).toBe('unknown');
    expect(declaredKind(undefined, '.bashrc')).toBe('unknown');
    expect(declaredKind(undefined, 'Survey 12.03.2024')).toBe('unknown');
  });

  it('is unsupported for clearly declared other types', () => {
    expect(declaredKind('application/zip', 'report.docx')).toBe('unsupported');
    expect(declaredKind('text/plain', undefined)).toBe('unsupported');
    expect(declaredKind('application/msword', undefined)).toBe('unsupported');
    expect(declaredKind(undefined, 'setup.exe')).toBe('unsupported');
    expect(declaredKind('application/octet-stream', 'archive.zip')).toBe('unsupported');
    expect(declaredKind(undefined, 'old.doc')).toBe('unsupported');
  });
});

describe('checkUploadKind (the gateway rule)', () => {
  const pdf = ascii('%PDF-1.7\n');

  it('accepts when the declaration agrees or is silent', () => {
    expect(checkUploadKind(pdf, 'application/pdf', 'a.pdf')).toEqual({ ok: true, kind: 'pdf' });
    expect(checkUploadKind(pdf, undefined, undefined)).toEqual({ ok: true, kind: 'pdf' });
    expect(checkUploadKind(PNG, 'application/octet-stream', 'scan')).toEqual({
      ok: true,
      kind: 'png',
    });
    expect(checkUploadKind(MHTML, 'message/rfc822', 'page.mht')).toEqual({
      ok: true,
      kind: 'mhtml',
    });
  });

  it('refuses each mismatch between declared and sniffed kinds', () => {
    const cases: [Buffer, string | undefined, string | undefined][] = [
      [pdf, 'image/png', undefined],
      [pdf, undefined, 'report.docx'],
      [PNG, 'image/jpeg', undefined],
      [JPEG, 'image/webp', undefined],
      [WEBP, 'image/png', undefined],
      [ascii('<html>'), 'application/pdf', undefined],
      [MHTML, 'text/html', undefined],
      [notADocx(), 'application/pdf', undefined],
    ];
    for (const [head, mime, name] of cases) {
      const result = checkUploadKind(head, mime, name);
      expect(result.ok, `${mime ?? name}`).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(/declared as/);
    }
  });

  it('refuses unsupported declarations and unrecognisable bytes', () => {
    const zip = checkUploadKind(notADocx(), 'application/zip', 'a.zip');
    expect(zip.ok).toBe(false);
    const text = checkUploadKind(ascii('just some text'), undefined, undefined);
    expect(text).toEqual({ ok: false, reason: expect.stringMatching(/not a PDF/) });
  });
});
