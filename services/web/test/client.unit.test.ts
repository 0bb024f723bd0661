import { describe, expect, it } from 'vitest';
import { linkCitations } from '../src/client/Markdown.js';
import { MAX_UPLOAD_BYTES, uploadProblem } from '../src/client/Reports.js';
import { errorWords } from '../src/client/words.js';

describe('client helpers', () => {
  it('turns [C1] citations into links the renderer resolves, leaving real links alone', () => {
    expect(linkCitations('Slates [C1] and gutters [C12].')).toBe(
      'Slates [C1](#cite-C1) and gutters [C12](#cite-C12).',
    );
    expect(linkCitations('[C1](https://example.test)')).toBe('[C1](https://example.test)');
  });

  it("links the local answerer's [file p. N] citations to the chunk they name, and nothing else", () => {
    const chunks = [
      { ref: 'C1', citation: 'Inspection.pdf p. 12' },
      { ref: 'C2', citation: 'quote.pdf pp. 1–2' },
    ];
    expect(
      linkCitations(
        'Age: 11 years. [Inspection.pdf p. 12] Cost. [quote.pdf pp. 1–2] [other]',
        chunks,
      ),
    ).toBe(
      'Age: 11 years. [Inspection.pdf p. 12](#cite-C1) Cost. [quote.pdf pp. 1–2](#cite-C2) [other]',
    );
  });

  it('checks type, emptiness and the 50 MB limit before an upload is sent', () => {
    expect(uploadProblem({ name: 'survey.PDF', size: 10 })).toBeNull();
    expect(uploadProblem({ name: 'notes.txt', size: 10 })).toMatch(/not a supported kind/);
    expect(uploadProblem({ name: 'empty.docx', size: 0 })).toMatch(/is empty/);
    expect(uploadProblem({ name: 'big.pdf', size: MAX_UPLOAD_BYTES + 1 })).toMatch(/50 MB/);
  });

  it("puts the gateway's errors in words", () => {
    expect(errorWords(413, 'file_too_large', 'the file is larger than 50 MB')).toMatch(/50 MB/);
    expect(errorWords(503, 'ocr_unavailable', '')).toMatch(/scanned documents/);
    expect(errorWords(429, 'rate_limited', '')).toMatch(/Wait a minute/);
    expect(errorWords(0, 'network', '')).toMatch(/cannot be reached/);
    expect(errorWords(500, 'internal', 'internal server error')).toMatch(/went wrong/);
  });
});
