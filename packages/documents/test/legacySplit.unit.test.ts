import { describe, expect, it } from 'vitest';
import { splitLegacyText } from '../src/index.js';

describe('the v1 heading split of clean text', () => {
  it('cuts at markdown headings and keeps each body without its heading line', () => {
    const sections = splitLegacyText(
      '# Survey\n\nThe house.\n\n## Roof\nSlate, sound.\n\n## Walls\n\nBrick.\n',
    );
    expect(sections).toEqual([
      { name: 'Survey', slug: 'survey', level: 1, order: 0, markdown: 'The house.' },
      { name: 'Roof', slug: 'roof', level: 2, order: 1, markdown: 'Slate, sound.' },
      { name: 'Walls', slug: 'walls', level: 2, order: 2, markdown: 'Brick.' },
    ]);
  });

  it('names the text before the first heading after the title, or Introduction, and drops it when empty', () => {
    expect(splitLegacyText('Preamble.\n# Roof\nOk', 'My report')[0]).toMatchObject({
      name: 'My report',
      level: 0,
      markdown: 'Preamble.',
    });
    expect(splitLegacyText('Preamble.\n# Roof\nOk')[0]?.name).toBe('Introduction');
    expect(splitLegacyText('\n\n# Roof\nOk').map((s) => s.name)).toEqual(['Roof']);
  });

  it('reads setext headings (=== and ---) after a one-line paragraph', () => {
    const sections = splitLegacyText('Summary\n=======\nGood.\n\nDamp\n----\nSome.');
    expect(sections.map((s) => [s.name, s.level, s.markdown])).toEqual([
      ['Summary', 1, 'Good.'],
      ['Damp', 2, 'Some.'],
    ]);
  });

  it('keeps a thematic break, a list item and a paragraph continuation as text', () => {
    const text = '# A\nfirst line\nsecond line\n---\n\n---\n- item\n---\nend';
    const sections = splitLegacyText(text);
    expect(sections.map((s) => s.name)).toEqual(['A']);
    expect(sections[0]?.markdown).toBe(text.slice('# A\n'.length));
  });

  it('ignores headings inside fenced code blocks', () => {
    const sections = splitLegacyText('# Notes\n```\n# not a heading\n```\n~~~\n## nor this\n~~~');
    expect(sections).toHaveLength(1);
    expect(sections[0]?.markdown).toContain('# not a heading');
    expect(sections[0]?.markdown).toContain('## nor this');
  });

  it('strips closing hashes, needs a space after the hashes, and skips empty headings', () => {
    expect(splitLegacyText('## Roof ##\nx').map((s) => s.name)).toEqual(['Roof']);
    expect(splitLegacyText('#hashtag\n#\ntext')).toEqual([
      {
        name: 'Introduction',
        slug: 'introduction',
        level: 0,
        order: 0,
        markdown: '#hashtag\n#\ntext',
      },
    ]);
  });

  it('gives repeated and accented names unique ASCII slugs', () => {
    const sections = splitLegacyText('# Élévation\na\n# Élévation\nb\n# ???\nc');
    expect(sections.map((s) => s.slug)).toEqual(['elevation', 'elevation-1', 'section']);
  });

  it('handles CRLF line ends and empty text', () => {
    expect(splitLegacyText('# A\r\nx\r\n# B\r\ny').map((s) => s.markdown)).toEqual(['x', 'y']);
    expect(splitLegacyText('')).toEqual([]);
    expect(splitLegacyText('   \n\n')).toEqual([]);
  });

  it('is deterministic: the same text always splits the same way', () => {
    const text = '# A\n1\n## B\n2\nC\n===\n3';
    expect(splitLegacyText(text, 't')).toEqual(splitLegacyText(text, 't'));
  });
});
