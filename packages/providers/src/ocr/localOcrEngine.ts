import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { OcrEngine, OcrInputKind, OcrPage, OcrResult } from './ocr.js';
import { OcrError } from './ocrError.js';
import { tesseractTsvToMarkdown } from './tesseractMarkdown.js';

export interface LocalOcrOptions {
  /** Pages read at once (one Tesseract process, one thread each). Default: the number of cores. */
  concurrency?: number;
  /** Time allowed for one page (rasterising plus recognition). Default 120 s. */
  pageTimeoutMs?: number;
  /** Long side of a rasterised PDF page, in pixels (about 190 dpi for A4). Default 2200. */
  pagePixels?: number;
  /** Tesseract language(s), e.g. `eng` or `eng+deu`. Default `eng`. */
  language?: string;
  /** Executables; default: found on PATH. */
  tesseract?: string;
  pdftoppm?: string;
  pdfinfo?: string;
}

const EXTENSION: Record<OcrInputKind, string> = {
  pdf: 'pdf',
  png: 'png',
  jpeg: 'jpg',
  webp: 'webp',
};

/**
 * Output of one process; rejects on a non-zero exit (OcrError `rejected`: this document cannot be
 * read), a timeout (`timeout`), a missing executable (`unavailable`) or an abort (the process is
 * killed in every case).
 */
function run(
  file: string,
  args: string[],
  opts: { timeoutMs: number; signal?: AbortSignal; cwd: string },
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: opts.cwd,
        timeout: opts.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
        ...(opts.signal ? { signal: opts.signal } : {}),
        // One thread per Tesseract: pages run in parallel instead, which uses the cores better.
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const e = error as NodeJS.ErrnoException & { killed?: boolean };
        if (e.code === 'ENOENT')
          return reject(
            new OcrError(
              'unavailable',
              `${path.basename(file)} is not installed (apt-get install tesseract-ocr tesseract-ocr-eng poppler-utils)`,
            ),
          );
        if (opts.signal?.aborted)
          return reject(
            opts.signal.reason instanceof Error ? opts.signal.reason : new Error('aborted'),
          );
        if (e.killed)
          return reject(
            new OcrError(
              'timeout',
              `OCR of a page took longer than ${opts.timeoutMs} ms and was stopped`,
            ),
          );
        reject(
          new OcrError(
            'rejected',
            `OCR could not read the page: ${path.basename(file)} failed (${String(stderr).trim().split('\n').pop()?.slice(0, 200) || e.message})`,
          ),
        );
      },
    );
  });
}

/** Runs `fn` over `items`, at most `limit` at a time, results in input order. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/**
 * OCR on this machine: Tesseract (Debian's `tesseract-ocr`), with PDF pages rasterised by
 * poppler's `pdftoppm` to a bounded size. Pages run in parallel up to the number of cores, one
 * Tesseract thread each. Processes get argument arrays (no shell), a time limit per page, and a
 * private temporary directory that is removed afterwards. Free: cost 0.
 */
export class LocalOcrEngine implements OcrEngine {
  readonly provider = 'local';
  readonly readsWholeDocuments = false;
  readonly model: string;
  readonly #concurrency: number;
  readonly #timeoutMs: number;
  readonly #pagePixels: number;
  readonly #language: string;
  readonly #bin: { tesseract: string; pdftoppm: string; pdfinfo: string };

  constructor(opts: LocalOcrOptions = {}) {
    this.#concurrency = Math.max(1, opts.concurrency ?? os.availableParallelism());
    this.#timeoutMs = opts.pageTimeoutMs ?? 120_000;
    this.#pagePixels = opts.pagePixels ?? 2200;
    this.#language = opts.language ?? 'eng';
    this.#bin = {
      tesseract: opts.tesseract ?? 'tesseract',
      pdftoppm: opts.pdftoppm ?? 'pdftoppm',
      pdfinfo: opts.pdfinfo ?? 'pdfinfo',
    };
    this.model = `tesseract-${this.#language}`;
  }

  async recognise(input: {
    kind: OcrInputKind;
    bytes: Buffer;
    pages?: number[];
    signal?: AbortSignal;
  }): Promise<OcrResult> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ocr-'));
    try {
      const source = path.join(dir, `input.${EXTENSION[input.kind]}`);
      await writeFile(source, input.bytes, { mode: 0o600 });
      const opts = {
        timeoutMs: this.#timeoutMs,
        cwd: dir,
        ...(input.signal ? { signal: input.signal } : {}),
      };
      let pages: OcrPage[];
      if (input.kind === 'pdf') {
        const indexes = input.pages ?? (await this.#pageIndexes(source, opts));
        pages = await mapLimited(indexes, this.#concurrency, async (index) => {
          const base = path.join(dir, `page-${index + 1}`);
          await run(
            this.#bin.pdftoppm,
            [
              '-f',
              String(index + 1),
              '-l',
              String(index + 1),
              '-singlefile',
              '-gray',
              '-png',
              '-scale-to',
              String(this.#pagePixels),
              source,
              base,
            ],
            opts,
          );
          const markdown = await this.#read(`${base}.png`, opts);
          await rm(`${base}.png`, { force: true });
          return { index, markdown, images: [] };
        });
      } else {
        pages = [{ index: 0, markdown: await this.#read(source, opts), images: [] }];
      }
      return { pages, provider: this.provider, model: this.model, cost_cents: 0, annotated: false };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async #read(
    image: string,
    opts: { timeoutMs: number; cwd: string; signal?: AbortSignal },
  ): Promise<string> {
    const tsv = await run(
      this.#bin.tesseract,
      [image, 'stdout', '-l', this.#language, '--psm', '3', 'tsv'],
      opts,
    );
    return tesseractTsvToMarkdown(tsv);
  }

  async #pageIndexes(
    source: string,
    opts: { timeoutMs: number; cwd: string; signal?: AbortSignal },
  ): Promise<number[]> {
    const info = await run(this.#bin.pdfinfo, [source], opts);
    const count = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? '0');
    return Array.from({ length: count }, (_, i) => i);
  }
}
