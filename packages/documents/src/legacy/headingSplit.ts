import { INTRODUCTION, SlugMaker } from '../parse/sections.js';

/** One section of a v1 report, cut from its clean text at a heading. */
export interface LegacySection {
  name: string;
  /** Lowercase ASCII, unique within the report (the same slugs the parsers hand out). */
  slug: string;
  /** Heading level 1–6; 0 for the text before the first heading. */
  level: number;
  /** 0-based, in document order. */
  order: number;
  /** The body under the heading, up to the next heading (the heading line itself is not repeated). */
  markdown: string;
}

const ATX = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT_1 = /^ {0,3}=+[ \t]*$/;
const SETEXT_2 = /^ {0,3}-+[ \t]*$/;
// A line that cannot be the text of a setext heading: blank, a list item, a quote, a table row.
const NOT_PARAGRAPH = /^\s*$|^ {0,3}(?:[-*+]\s|\d+[.)]\s|>|\|)/;

interface Cut {
  name: string | null;
  level: number;
  lines: string[];
}

function body(lines: string[]): string {
  return lines.join('\n').trim();
}

/**
 * The v1 heading split: a legacy report's clean text becomes sections at its
 * markdown headings (`# …` to `###### …`, and `Title` underlined with `===` or
 * `---`). Headings inside fenced code blocks are text. The text before the first
 * heading becomes a level-0 section named after the title (or "Introduction"),
 * dropped when empty. Pure: the same text always gives the same sections, so the
 * sections read back from `clean_text` match the ones indexed at import.
 */
export function splitLegacyText(cleanText: string, title?: string | null): LegacySection[] {
  const lines = cleanText.replace(/\r\n?/g, '\n').split('\n');
  const cuts: Cut[] = [{ name: null, level: 0, lines: [] }];
  let fence: string | null = null;
  for (const line of lines) {
    const current = cuts[cuts.length - 1]!;
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence)) fence = null;
      current.lines.push(line);
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      current.lines.push(line);
      continue;
    }
    const atx = ATX.exec(line);
    if (atx && atx[2]!.trim() !== '') {
      cuts.push({ name: atx[2]!.trim(), level: atx[1]!.length, lines: [] });
      continue;
    }
    const previous = current.lines[current.lines.length - 1];
    const setextLevel = SETEXT_1.test(line) ? 1 : SETEXT_2.test(line) ? 2 : 0;
    if (setextLevel > 0 && previous !== undefined && !NOT_PARAGRAPH.test(previous)) {
      // Only a one-line paragraph becomes a heading: the line before it must end a block.
      const beforePrevious = current.lines[current.lines.length - 2];
      if (beforePrevious === undefined || beforePrevious.trim() === '') {
        current.lines.pop();
        cuts.push({ name: previous.trim(), level: setextLevel, lines: [] });
        continue;
      }
    }
    current.lines.push(line);
  }

  const slugs = new SlugMaker();
  const sections: LegacySection[] = [];
  for (const cut of cuts) {
    const markdown = body(cut.lines);
    if (cut.name === null && markdown === '') continue;
    const name = cut.name ?? (title?.trim() || INTRODUCTION);
    sections.push({
      name,
      slug: slugs.slug(name),
      level: cut.level,
      order: sections.length,
      markdown,
    });
  }
  return sections;
}
