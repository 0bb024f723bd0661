import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocumentError, bareExtract, isDocumentError, parseDocument } from '../src/index.js';
import type { DocumentKind } from '../src/index.js';
import { buildDocx, buildHtml, buildPdf, sampleReportSpec } from '@reports/test-support';
import { rejectionOf } from './helpers.js';

describe('parseDocument, whatever the kind', () => {
  it.each(['png', 'jpeg', 'webp'] as DocumentKind[])(
    'a %s that is only a few header bytes is damaged',
    async (kind) => {
      const err = await rejectionOf(parseDocument(kind, Buffer.from([0x89, 0x50, 0x4e, 0x47])));
      expect(err).toBeInstanceOf(DocumentError);
      expect(isDocumentError(err)).toBe(true);
      expect(err.code).toBe('corrupt');
      expect(err.message).toBe(`the ${kind.toUpperCase()} image is damaged or cannot be read`);
    },
  );

  it('an MHTML file that is only a header line is damaged', async () => {
    const err = await rejectionOf(parseDocument('mhtml', Buffer.from('MIME-Version: 1.0\r\n')));
    expect(err).toMatchObject({ name: 'DocumentError', code: 'corrupt' });
    expect(err.message).toMatch(/^the MHTML file is damaged/);
  });

  it('an already aborted signal stops any parse with a timeout error', async () => {
    const err = await rejectionOf(
      parseDocument('html', Buffer.from('<p>x</p>'), { signal: AbortSignal.abort() }),
    );
    expect(err.code).toBe('timeout');
  });
});

describe('DocumentError', () => {
  it('is an Error with a code, a readable message and the cause kept', () => {
    const cause = new Error('xref missing');
    const err = new DocumentError('corrupt', 'the PDF is damaged: xref missing', { cause });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('DocumentError');
    expect(err.code).toBe('corrupt');
    expect(err.cause).toBe(cause);
    expect(isDocumentError(new Error('x'))).toBe(false);
  });
});

describe('bareExtract (benchmark baseline)', () => {
  it('extracts characters with the bare library for each parsed kind', async () => {
    const spec = sampleReportSpec();
    const textLength = spec.sections.reduce((n, s) => n + s.paragraphs.join('').length, 0);
    const pdf = await bareExtract('pdf', await buildPdf(spec));
    const docx = await bareExtract('docx', await buildDocx(spec));
    const html = await bareExtract('html', buildHtml(spec));
    for (const chars of [pdf, docx, html]) expect(chars).toBeGreaterThan(textLength * 0.9);
    expect((await rejectionOf(bareExtract('png', Buffer.alloc(8)))).code).toBe('unsupported');
  });
});

describe('package hygiene', () => {
  it('contains no network code (nothing a document references is ever fetched)', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts')) files.push(path);
      }
    };
    walk(join(import.meta.dirname, '..', 'src'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      expect(source, file).not.toMatch(
        /\bfetch\s*\(|node:(https?|net|tls|dgram|http2)\b|from '(https?|net|tls)'|XMLHttpRequest|WebSocket/,
      );
    }
  });
});
