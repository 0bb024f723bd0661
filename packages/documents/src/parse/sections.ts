import GithubSlugger from 'github-slugger';
import type { DocumentKind } from '../kinds.js';
import type { FigureDraft, ParsedDocument, SectionDraft, TableDraft } from './types.js';

/** A table found while splitting, before orders are known. */
export interface RawTable {
  rows: string[][];
  markdown: string;
  page_number: number | null;
}

/** A figure found while splitting, before orders are known. */
export type RawFigure = Omit<FigureDraft, 'section_order' | 'order'>;

/** A section found while splitting; `name === null` marks the content before the first heading. */
export interface RawSection {
  name: string | null;
  level: number;
  markdown: string;
  page_start: number | null;
  page_end: number | null;
  tables: RawTable[];
  /** Figures in the section, in document order (absent: none). */
  figures?: RawFigure[];
}

const LIGATURES: Record<string, string> = {
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ß: 'ss',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'TH',
  ð: 'd',
  Ð: 'D',
};

/** Strips accents and folds common Latin letters to ASCII ("Élévation" → "Elevation"); drops what cannot be folded. */
export function asciiFold(text: string): string {
  return text
    .replace(/[æÆœŒßøØđĐłŁþÞðÐ]/g, (c) => LIGATURES[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\x20-\x7e]+/g, ' ');
}

const MAX_SLUG_SOURCE = 80;

/** Hands out lowercase ASCII slugs, unique within one document ("roof", "roof-1", ...). */
export class SlugMaker {
  readonly #slugger = new GithubSlugger();

  slug(name: string): string {
    let source = asciiFold(name).replace(/\s+/g, ' ').trim();
    if (source.length > MAX_SLUG_SOURCE) {
      const cut = source.slice(0, MAX_SLUG_SOURCE);
      const space = cut.lastIndexOf(' ');
      source = space > MAX_SLUG_SOURCE / 2 ? cut.slice(0, space) : cut;
    }
    if (!/[a-z0-9]/i.test(source)) source = 'section';
    return this.#slugger.slug(source);
  }
}

export const INTRODUCTION = 'Introduction';

/**
 * Orders, names and slugs the raw sections: the content before the first heading becomes a
 * level-0 section named after the title (or "Introduction") and is dropped when empty; tables
 * get their section's order and a document-wide order.
 */
export function assembleDocument(
  kind: DocumentKind,
  title: string | null,
  pageCount: number | null,
  raws: RawSection[],
  ocrPages: number[] = [],
): ParsedDocument {
  const slugs = new SlugMaker();
  const sections: SectionDraft[] = [];
  const tables: TableDraft[] = [];
  const figures: FigureDraft[] = [];
  for (const raw of raws) {
    const markdown = raw.markdown.trim();
    const rawFigures = raw.figures ?? [];
    if (raw.name === null && markdown === '' && raw.tables.length === 0 && rawFigures.length === 0)
      continue;
    const name = raw.name ?? (title || INTRODUCTION);
    const order = sections.length;
    sections.push({
      name,
      slug: slugs.slug(name),
      level: raw.name === null ? 0 : raw.level,
      order,
      markdown,
      page_start: raw.page_start,
      page_end: raw.page_end,
    });
    for (const table of raw.tables) {
      tables.push({
        section_order: order,
        order: tables.length,
        page_number: table.page_number,
        markdown: table.markdown,
        rows: table.rows,
      });
    }
    for (const figure of rawFigures) {
      figures.push({ ...figure, section_order: order, order: figures.length });
    }
  }
  return {
    kind,
    title,
    page_count: pageCount,
    sections,
    tables,
    figures,
    ocr_pages: ocrPages,
  };
}
