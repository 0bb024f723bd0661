import { createHash } from 'node:crypto';
import sanitizeHtml from 'sanitize-html';
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';
import { DomUtils, parseDocument } from 'htmlparser2';
import { throwIfAborted } from '../errors.js';
import { figureImage } from '../images/image.js';
import type { DocumentKind } from '../kinds.js';
import { decodeHtmlBytes } from './charset.js';
import { decodeDataUri } from './dataUri.js';
import { assembleDocument } from './sections.js';
import type { RawFigure, RawSection, RawTable } from './sections.js';
import { escapeMarkdown, normalizeSpace, padRows, rowsToMarkdown } from './text.js';
import type { ParsedDocument, ParseOptions } from './types.js';

type DomDocument = ReturnType<typeof parseDocument>;
type AnyNode = DomDocument['children'][number];
type Element = Parameters<typeof DomUtils.getAttributeValue>[0];

/** Class mammoth puts on Word "Title" paragraphs (see docx.ts); only honoured for DOCX input. */
export const DOCX_TITLE_CLASS = 'docx-title';

const HEADING = /^h([1-6])$/;

const ALLOWED_TAGS = [
  'title',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'br',
  'hr',
  'div',
  'span',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'nav',
  'address',
  'blockquote',
  'pre',
  'code',
  'kbd',
  'samp',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'del',
  'strike',
  'ins',
  'mark',
  'sub',
  'sup',
  'small',
  'abbr',
  'cite',
  'q',
  'time',
  'a',
  'img',
  'figure',
  'figcaption',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
];

/** Elements dropped together with everything inside them. */
const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'noscript',
  'template',
  'textarea',
  'select',
  'option',
  'button',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'canvas',
  'audio',
  'video',
];

function sanitizeOptions(docxTitles: boolean): sanitizeHtml.IOptions {
  return {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: {
      a: ['href', 'title'],
      // src is kept only so the image can be resolved to bytes already in hand (data: URIs,
      // MHTML parts, DOCX media); nothing is ever fetched, and it never reaches the markdown.
      img: ['alt', 'src'],
      th: ['colspan', 'rowspan'],
      td: ['colspan', 'rowspan'],
      ol: ['start'],
      ...(docxTitles ? { h1: ['class'] } : {}),
    },
    allowedClasses: docxTitles ? { h1: [DOCX_TITLE_CLASS] } : {},
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['data', 'cid', 'http', 'https'] },
    allowedSchemesAppliedToAttributes: ['href', 'src'],
    allowProtocolRelative: false,
    nonTextTags: DROPPED_WITH_CONTENT,
    disallowedTagsMode: 'discard',
    allowVulnerableTags: false,
  };
}

/**
 * Sanitises HTML: no scripts, styles, frames, embeds, forms, links or metas, no event handlers
 * or inline styles, no classes; keeps headings, paragraphs, lists, tables, emphasis, links
 * (text + href) and images (alt only). Disallowed wrappers (form, font, center, ...) lose the tag
 * but keep their text.
 */
export function sanitizeHtmlString(html: string, opts: { docxTitles?: boolean } = {}): string {
  return sanitizeHtml(html, sanitizeOptions(opts.docxTitles ?? false));
}

let turndownSingleton: TurndownService | null = null;

/** The minimal DOM surface (domino's) our turndown rules touch. */
interface MdNode {
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<MdNode>;
  getAttribute?: (name: string) => string | null;
}

function mdDescendants(
  node: MdNode,
  test: (n: MdNode) => boolean,
  stopAt?: (n: MdNode) => boolean,
): MdNode[] {
  const out: MdNode[] = [];
  const walk = (n: MdNode): void => {
    for (let i = 0; i < n.childNodes.length; i++) {
      const child = n.childNodes[i] as MdNode;
      if (test(child)) out.push(child);
      if (!stopAt?.(child)) walk(child);
    }
  };
  walk(node);
  return out;
}

const MD_BLOCKISH = new Set([
  'P',
  'DIV',
  'BR',
  'LI',
  'TR',
  'TD',
  'TH',
  'UL',
  'OL',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'BLOCKQUOTE',
  'PRE',
  'HR',
  'DT',
  'DD',
]);

/** Text of a DOM node with block boundaries as spaces (textContent would glue list items together). */
function mdText(node: MdNode): string {
  if (node.nodeName === '#text') return node.textContent ?? '';
  if (node.nodeName === 'IMG') return ` ${node.getAttribute?.('alt') ?? ''} `;
  let out = '';
  for (let i = 0; i < node.childNodes.length; i++) out += mdText(node.childNodes[i] as MdNode);
  return MD_BLOCKISH.has(node.nodeName) ? ` ${out} ` : out;
}

const COMPLEX_IN_TABLE = new Set([
  'UL',
  'OL',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HR',
  'BLOCKQUOTE',
  'PRE',
  'CODE',
]);

function turndownService(): TurndownService {
  if (turndownSingleton) return turndownSingleton;
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
    linkStyle: 'inlined',
  });
  service.use(gfm);
  // Images are only their alt text for now (figures arrive later).
  service.addRule('imageAltText', {
    filter: 'img',
    replacement: (_content, node) => {
      const alt = normalizeSpace((node as unknown as MdNode).getAttribute?.('alt') ?? '');
      return alt ? escapeMarkdown(alt) : '';
    },
  });
  // The gfm plugin keeps tables holding lists, headings, quotes or code as raw HTML; we always
  // want markdown, so such tables become plain-text GFM tables.
  service.addRule('complexTableAsText', {
    filter: (node) => {
      const n = node as unknown as MdNode;
      if (n.nodeName !== 'TABLE') return false;
      if (mdDescendants(n, (d) => d.nodeName === 'TABLE').length > 0) return false;
      return mdDescendants(n, (d) => COMPLEX_IN_TABLE.has(d.nodeName)).length > 0;
    },
    replacement: (_content, node) => {
      const rows = mdDescendants(node as unknown as MdNode, (d) => d.nodeName === 'TR').map((tr) =>
        mdDescendants(
          tr,
          (d) => d.nodeName === 'TH' || d.nodeName === 'TD',
          () => true,
        ).map((cell) => normalizeSpace(mdText(cell))),
      );
      return rows.length > 0 ? `\n\n${rowsToMarkdown(padRows(rows))}\n\n` : '';
    },
  });
  turndownSingleton = service;
  return service;
}

/** HTML to GitHub-flavoured markdown (turndown + gfm tables), tidied. */
export function htmlToMarkdown(html: string): string {
  if (html.trim() === '') return '';
  return turndownService()
    .turndown(html)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const BLOCKISH = new Set([
  'p',
  'div',
  'br',
  'li',
  'tr',
  'td',
  'th',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'table',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'section',
  'article',
  'header',
  'footer',
  'figure',
  'figcaption',
  'caption',
  'address',
  'hr',
]);

/** Visible text of a node: images count as their alt text, block boundaries as spaces. */
function visibleText(node: AnyNode): string {
  if (DomUtils.isText(node)) return node.data;
  if (!DomUtils.isTag(node)) return '';
  if (node.name === 'img') return ` ${node.attribs.alt ?? ''} `;
  const inner = node.children.map((c) => visibleText(c as AnyNode)).join('');
  return BLOCKISH.has(node.name) ? ` ${inner} ` : inner;
}

function elementChildren(el: Element, ...names: string[]): Element[] {
  return el.children.filter((c): c is Element => DomUtils.isTag(c) && names.includes(c.name));
}

/** The table's own rows in rendering order (thead, body rows, tfoot), not those of nested tables. */
function tableRows(table: Element): Element[][] {
  const head: Element[] = [];
  const body: Element[] = [];
  const foot: Element[] = [];
  for (const child of elementChildren(table, 'thead', 'tbody', 'tfoot', 'tr')) {
    if (child.name === 'tr') body.push(child);
    else if (child.name === 'thead') head.push(...elementChildren(child, 'tr'));
    else if (child.name === 'tfoot') foot.push(...elementChildren(child, 'tr'));
    else body.push(...elementChildren(child, 'tr'));
  }
  return [...head, ...body, ...foot]
    .map((tr) => elementChildren(tr, 'th', 'td'))
    .filter((cells) => cells.some((cell) => normalizeSpace(visibleText(cell)) !== ''));
}

function colspan(cell: Element): number {
  const n = Number.parseInt(cell.attribs.colspan ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 50) : 1;
}

function cellTexts(rows: Element[][]): string[][] {
  return padRows(
    rows.map((cells) =>
      cells.flatMap((cell) => [
        normalizeSpace(visibleText(cell)),
        ...Array.from({ length: colspan(cell) - 1 }, () => ''),
      ]),
    ),
  );
}

const SERIALIZE = { encodeEntities: 'utf8' as const };

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function openTag(el: Element): string {
  const attrs = Object.entries(el.attribs)
    .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
    .join('');
  return `<${el.name}${attrs}>`;
}

function containsTag(el: Element, test: (e: Element) => boolean): boolean {
  return DomUtils.findOne(test, el.children, true) !== null;
}

const isTable = (e: Element): boolean => e.name === 'table';

/**
 * Serialises a node back to HTML, rewriting every table into one regular shape: the first row
 * is the header row (in thead, as th cells), the rest are body rows; empty rows are dropped.
 * GFM tables need exactly one header row, and most report tables (especially from Word) do not
 * mark theirs.
 */
function serialize(node: AnyNode): string {
  if (!DomUtils.isTag(node)) return DomUtils.getOuterHTML(node, SERIALIZE);
  if (node.name === 'table') return renderTable(node);
  if (!containsTag(node, isTable)) return DomUtils.getOuterHTML(node, SERIALIZE);
  return `${openTag(node)}${node.children.map((c) => serialize(c as AnyNode)).join('')}</${node.name}>`;
}

function renderTable(table: Element): string {
  const rows = tableRows(table);
  if (rows.length === 0) return '';
  const caption = elementChildren(table, 'caption')[0];
  const row = (cells: Element[], tag: 'th' | 'td'): string =>
    `<tr>${cells
      .map((cell) => {
        const span = colspan(cell);
        return `<${tag}${span > 1 ? ` colspan="${span}"` : ''}>${cell.children.map((c) => serialize(c as AnyNode)).join('')}</${tag}>`;
      })
      .join('')}</tr>`;
  const [head, ...body] = rows;
  return (
    `<table>${caption ? DomUtils.getOuterHTML(caption, SERIALIZE) : ''}` +
    `<thead>${row(head ?? [], 'th')}</thead>` +
    (body.length > 0 ? `<tbody>${body.map((r) => row(r, 'td')).join('')}</tbody>` : '') +
    `</table>`
  );
}

/** Data tables inside `node` (itself included): not layout tables holding other tables, not single cells. */
function dataTables(node: AnyNode): RawTable[] {
  if (!DomUtils.isTag(node)) return [];
  const found = node.name === 'table' ? [node] : DomUtils.findAll(isTable, node.children);
  const out: RawTable[] = [];
  for (const table of found) {
    if (containsTag(table, isTable)) continue;
    const rows = cellTexts(tableRows(table));
    if (rows.length === 0 || (rows.length === 1 && (rows[0]?.length ?? 0) <= 1)) continue;
    out.push({ rows, markdown: htmlToMarkdown(renderTable(table)), page_number: null });
  }
  return out;
}

/** An `<img>` met while splitting: its src (to resolve) and alt text. */
export interface ImageRef {
  src: string;
  alt: string | null;
}

interface Draft extends RawSection {
  html: string[];
  images: ImageRef[];
}

/** The `<img>` elements in `node` (itself included), in document order. */
function imagesIn(node: AnyNode): ImageRef[] {
  if (!DomUtils.isTag(node)) return [];
  const imgs =
    node.name === 'img' ? [node] : DomUtils.findAll((e) => e.name === 'img', node.children);
  return imgs.flatMap((img) => {
    const src = (img.attribs.src ?? '').trim();
    if (src === '') return [];
    return [{ src, alt: normalizeSpace(img.attribs.alt ?? '') || null }];
  });
}

export interface HtmlSplit {
  /** `<title>` text, or the leading Word Title paragraph(s), if any. */
  declaredTitle: string | null;
  /** Text of the first h1, if any. */
  firstH1: string | null;
  sections: Draft[];
}

/** Splits sanitised HTML on h1–h6 (headings nested in wrappers count; headings inside tables do not). */
export function splitOnHeadings(cleanHtml: string, opts: { docxTitles?: boolean } = {}): HtmlSplit {
  const dom = parseDocument(cleanHtml, { decodeEntities: true });
  const newDraft = (name: string | null, level: number): Draft => ({
    name,
    level,
    markdown: '',
    page_start: null,
    page_end: null,
    tables: [],
    html: [],
    images: [],
  });
  const sections: Draft[] = [newDraft(null, 0)];
  let current = sections[0] as Draft;
  let declaredTitle: string | null = null;
  let firstH1: string | null = null;
  const titleParts: string[] = [];
  let started = false; // any heading or content seen yet (leading Word titles come before)

  const visit = (nodes: AnyNode[]): void => {
    for (const node of nodes) {
      if (DomUtils.isTag(node)) {
        if (node.name === 'title') {
          declaredTitle ??= normalizeSpace(visibleText(node)) || null;
          continue;
        }
        const heading = HEADING.exec(node.name);
        if (heading) {
          const text = normalizeSpace(visibleText(node));
          if (text === '') continue;
          const isDocxTitle =
            opts.docxTitles && (node.attribs.class ?? '').split(/\s+/).includes(DOCX_TITLE_CLASS);
          if (isDocxTitle && !started) {
            titleParts.push(text);
            continue;
          }
          const level = Number(heading[1]);
          if (level === 1) firstH1 ??= text;
          started = true;
          current = newDraft(text, level);
          sections.push(current);
          continue;
        }
        if (node.name !== 'table' && containsTag(node, (e) => HEADING.test(e.name))) {
          visit(node.children as AnyNode[]);
          continue;
        }
        current.tables.push(...dataTables(node));
        current.images.push(...imagesIn(node));
        current.html.push(serialize(node));
        if (normalizeSpace(visibleText(node)) !== '') started = true;
      } else if (DomUtils.isText(node)) {
        current.html.push(DomUtils.getOuterHTML(node, SERIALIZE));
        if (node.data.trim() !== '') started = true;
      }
    }
  };
  visit(dom.children as AnyNode[]);
  if (titleParts.length > 0) declaredTitle = titleParts.join(' — ');
  return { declaredTitle, firstH1, sections };
}

/**
 * Turns an `<img src>` into image bytes the caller already has, or null. Never fetches: plain
 * HTML resolves `data:` URIs only; MHTML adds its MIME parts, DOCX its media.
 */
export type ImageResolver = (src: string) => Buffer | null;

/** The default resolver: `data:` URIs only. */
export const dataUriResolver: ImageResolver = (src) => decodeDataUri(src)?.bytes ?? null;

/** Images resolved to figures; an image seen twice (same bytes) is one figure. */
async function resolveFigures(
  images: ImageRef[],
  resolve: ImageResolver,
  seen: Set<string>,
  signal: AbortSignal | undefined,
): Promise<RawFigure[]> {
  const out: RawFigure[] = [];
  for (const ref of images) {
    throwIfAborted(signal);
    const bytes = resolve(ref.src);
    if (!bytes) continue;
    const key = createHash('sha256').update(bytes).digest('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    const image = await figureImage(bytes);
    if (!image) continue;
    out.push({ ...image, page_number: null, alt: ref.alt, ocr_text: null });
  }
  return out;
}

async function toParsed(
  kind: DocumentKind,
  split: HtmlSplit,
  resolve: ImageResolver,
  signal: AbortSignal | undefined,
): Promise<ParsedDocument> {
  for (const section of split.sections) section.markdown = htmlToMarkdown(section.html.join(''));
  const title = split.declaredTitle ?? split.firstH1;
  const seen = new Set<string>();
  const raws: RawSection[] = [];
  for (const { name, level, markdown, page_start, page_end, tables, images } of split.sections) {
    const figures = await resolveFigures(images, resolve, seen, signal);
    raws.push({ name, level, markdown, page_start, page_end, tables, figures });
  }
  return assembleDocument(kind, title, null, raws);
}

/** Already-decoded HTML (from a file, an MHTML part or mammoth) to a parsed document. */
export async function parseHtmlString(
  kind: DocumentKind,
  html: string,
  opts: ParseOptions & { docxTitles?: boolean; resolveImage?: ImageResolver } = {},
): Promise<ParsedDocument> {
  throwIfAborted(opts.signal);
  const clean = sanitizeHtmlString(html, { docxTitles: opts.docxTitles ?? false });
  throwIfAborted(opts.signal);
  const split = splitOnHeadings(clean, { docxTitles: opts.docxTitles ?? false });
  throwIfAborted(opts.signal);
  return toParsed(kind, split, opts.resolveImage ?? dataUriResolver, opts.signal);
}

export function parseHtml(bytes: Buffer, opts: ParseOptions = {}): Promise<ParsedDocument> {
  const { text } = decodeHtmlBytes(bytes);
  return parseHtmlString('html', text, opts);
}

/** Benchmark baseline: decoding plus sanitize-html alone; returns the characters it produced. */
export function bareExtractHtml(bytes: Buffer): number {
  return sanitizeHtml(decodeHtmlBytes(bytes).text).length;
}
