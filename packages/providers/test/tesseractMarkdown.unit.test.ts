import { describe, expect, it } from 'vitest';
import { tesseractTsvToMarkdown } from '../src/index.js';

const HEADER =
  'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';

/** TSV rows for one line: its level-4 row and one level-5 row per word (x, width). */
function line(
  block: number,
  par: number,
  ln: number,
  top: number,
  height: number,
  words: [number, number, string][],
  conf = 95,
): string[] {
  const right = Math.max(...words.map(([x, w]) => x + w));
  return [
    `4\t1\t${block}\t${par}\t${ln}\t0\t${words[0]![0]}\t${top}\t${right - words[0]![0]}\t${height}\t-1\t`,
    ...words.map(
      ([x, w, text], i) =>
        `5\t1\t${block}\t${par}\t${ln}\t${i + 1}\t${x}\t${top}\t${w}\t${height}\t${conf}\t${text}`,
    ),
  ];
}

function tsv(...rows: string[][]): string {
  return [HEADER, ...rows.flat()].join('\n');
}

describe('Tesseract TSV to markdown', () => {
  it('makes short lines set well above the body size into headings, the rest paragraphs', () => {
    const md = tesseractTsvToMarkdown(
      tsv(
        line(1, 1, 1, 80, 34, [[60, 90, 'Roof']]),
        line(2, 1, 1, 150, 19, [
          [60, 40, 'The'],
          [105, 60, 'slopes'],
          [170, 40, 'are'],
          [215, 50, 'well-'],
        ]),
        line(2, 1, 2, 178, 19, [[60, 40, 'kept.']]),
        line(3, 1, 1, 240, 26, [[60, 120, 'Walls']]),
        line(4, 1, 1, 290, 19, [[60, 60, 'Brick.']]),
      ),
    );
    expect(md).toBe('# Roof\n\nThe slopes are well-kept.\n\n## Walls\n\nBrick.');
  });

  it('makes runs of lines split by wide gaps into one GFM table, first row as header', () => {
    const md = tesseractTsvToMarkdown(
      tsv(
        line(1, 1, 1, 100, 19, [
          [60, 50, 'Room'],
          [300, 90, 'Condition'],
        ]),
        line(1, 2, 1, 130, 19, [
          [60, 60, 'Hallway'],
          [300, 40, 'Poor'],
        ]),
        line(1, 3, 1, 160, 19, [
          [60, 50, 'Living'],
          [115, 50, 'room'],
          [300, 40, 'Good|ok'],
        ]),
      ),
    );
    expect(md).toBe(
      '| Room | Condition |\n| --- | --- |\n| Hallway | Poor |\n| Living room | Good\\|ok |',
    );
  });

  it('joins a date or a number wrapped at its hyphen, and keeps a dash between words', () => {
    const md = tesseractTsvToMarkdown(
      tsv(
        line(1, 1, 1, 100, 19, [
          [60, 40, 'Gate'],
          [105, 50, 'repair'],
          [160, 30, 'due'],
          [195, 80, '2025-11-'],
        ]),
        line(1, 1, 2, 125, 19, [
          [60, 20, '28,'],
          [85, 50, 'score'],
          [140, 30, '(10-'],
        ]),
        line(1, 1, 3, 150, 19, [
          [60, 40, '40%)'],
          [105, 30, 'and'],
          [140, 40, 'rails'],
          [185, 10, '-'],
        ]),
        line(1, 1, 4, 175, 19, [[60, 40, 'Loose']]),
      ),
    );
    expect(md).toBe('Gate repair due 2025-11-28, score (10-40%) and rails - Loose');
  });

  it('reads nothing from an empty page', () => {
    expect(tesseractTsvToMarkdown(HEADER)).toBe('');
    expect(tesseractTsvToMarkdown('')).toBe('');
  });
});
