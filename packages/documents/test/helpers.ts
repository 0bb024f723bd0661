import { expect } from 'vitest';
import type { ParsedDocument } from '../src/index.js';
import type { ReportSpec } from '@reports/test-support';

/** The spec's slug for a heading: ASCII, lowercase, hyphens, "-1", "-2" for repeats. */
export function expectedSlugs(headings: string[]): string[] {
  const seen = new Map<string, number>();
  return headings.map((h) => {
    const base = h
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9 -]/g, '')
      .trim()
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  });
}

/** Shared expectations for a document built from `spec` in any format. */
export function expectMatchesSpec(doc: ParsedDocument, spec: ReportSpec): void {
  expect(doc.title).toBe(spec.title);
  expect(doc.sections.map((s) => s.name)).toEqual(spec.sections.map((s) => s.heading));
  expect(doc.sections.map((s) => s.order)).toEqual(spec.sections.map((_, i) => i));
  expect(doc.sections.every((s) => s.level === 1)).toBe(true);

  const slugs = doc.sections.map((s) => s.slug);
  expect(slugs).toEqual(expectedSlugs(spec.sections.map((s) => s.heading)));
  expect(new Set(slugs).size).toBe(slugs.length);
  for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);

  spec.sections.forEach((section, i) => {
    const markdown = doc.sections[i]?.markdown ?? '';
    expect(markdown.startsWith('#')).toBe(false); // the heading is not repeated
    for (const p of section.paragraphs) expect(markdown).toContain(p);
  });

  const withTables = spec.sections.map((s, i) => ({ s, i })).filter(({ s }) => s.table);
  expect(withTables.length).toBeGreaterThan(0);
  expect(doc.tables).toHaveLength(withTables.length);
  withTables.forEach(({ s, i }, t) => {
    const table = doc.tables[t];
    expect(table?.order).toBe(t);
    expect(table?.section_order).toBe(i);
    expect(table?.rows).toEqual(s.table);
    const section = doc.sections[i];
    expect(section?.markdown).toContain(table?.markdown ?? '<missing>');
    expectMarkdownTable(table?.markdown ?? '', s.table ?? []);
  });
}

/** A GFM table: header line, `| --- |` separator, one line per remaining row, holding the cells. */
export function expectMarkdownTable(markdown: string, rows: string[][]): void {
  const lines = markdown.trim().split('\n');
  expect(lines).toHaveLength(rows.length + 1);
  expect(lines[1]).toMatch(/^\|( :?-{3,}:? \|)+$/);
  const content = [lines[0], ...lines.slice(2)];
  rows.forEach((row, r) => {
    const cells = (content[r] ?? '')
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim().replace(/^\*\*(.*)\*\*$/, '$1'));
    expect(cells).toEqual(row);
  });
}

/** Awaits a rejection and returns the error, failing if the promise resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('expected the promise to reject, but it resolved');
}
