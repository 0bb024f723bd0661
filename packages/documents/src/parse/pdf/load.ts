import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DocumentError } from '../../errors.js';
import { MAX_IMAGE_PIXELS } from '../../images/image.js';
import { normalizeSpace } from '../text.js';

export type Pdfjs = typeof PdfjsModule;
export type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;
export type LoadingTask = ReturnType<Pdfjs['getDocument']>;

export const DEFAULT_MAX_PAGES = 2000;

let pdfjsPromise: Promise<{ pdfjs: Pdfjs; assets: string }> | null = null;

/**
 * Loads the pdf.js legacy build (the one meant for Node). In Node pdf.js always runs its
 * "fake worker" on the main thread; we hand it the worker module ourselves (globalThis.pdfjsWorker)
 * instead of letting it import "./pdf.worker.mjs" by relative URL, which breaks once bundled.
 */
export function loadPdfjs(): Promise<{ pdfjs: Pdfjs; assets: string }> {
  pdfjsPromise ??= (async () => {
    const [pdfjs, worker] = await Promise.all([
      import('pdfjs-dist/legacy/build/pdf.mjs'),
      import('pdfjs-dist/legacy/build/pdf.worker.mjs'),
    ]);
    const g = globalThis as { pdfjsWorker?: unknown };
    g.pdfjsWorker ??= worker;
    const assets = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    return { pdfjs, assets };
  })();
  return pdfjsPromise;
}

export function openPdf(pdfjs: Pdfjs, assets: string, bytes: Buffer): LoadingTask {
  return pdfjs.getDocument({
    data: new Uint8Array(bytes), // a copy: pdf.js may transfer/detach the buffer it is given
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    disableAutoFetch: true,
    disableStream: true,
    stopAtErrors: false,
    // Images above this many pixels are not decoded (a pixel bomb inside a PDF).
    maxImageSize: MAX_IMAGE_PIXELS,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    // Local files only (read with fs): CMaps for CJK fonts, metrics for the 14 standard fonts.
    cMapUrl: join(assets, 'cmaps') + '/',
    cMapPacked: true,
    standardFontDataUrl: join(assets, 'standard_fonts') + '/',
    // The WebAssembly decoders (OpenJPEG for JPEG 2000, JBIG2) and the colour-profile module: without
    // them pdf.js cannot decode JPXDecode/JBIG2Decode images, and such photos are lost.
    wasmUrl: join(assets, 'wasm') + '/',
  });
}

export function abortError(signal: AbortSignal): DocumentError {
  return new DocumentError('timeout', 'parsing the document took too long and was stopped', {
    cause: signal.reason,
  });
}

/** Resolves like `promise`, or rejects with DocumentError 'timeout' as soon as `signal` aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    // The work is abandoned, but it still settles: pdf.js rejects a loading task destroyed
    // before it opened ("Loading aborted"), and nothing else awaits it. Unhandled, that
    // rejection would end the process (a SIGTERM in the middle of a parse).
    promise.catch(() => undefined);
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

export function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Maps pdf.js load failures to DocumentErrors. */
export function loadError(err: unknown): DocumentError {
  if (err instanceof DocumentError) return err;
  const name = err instanceof Error ? err.name : '';
  const message = reasonOf(err);
  if (name === 'PasswordException' || /password|encrypt/i.test(message)) {
    return new DocumentError('encrypted', 'the PDF is encrypted', { cause: err });
  }
  return new DocumentError('corrupt', `the PDF is damaged: ${message}`, { cause: err });
}

/**
 * The Info dictionary's Title, unless it is only an authoring tool's placeholder: "Microsoft
 * Word - survey.docx" becomes "survey"; "Untitled", empty titles and a browser's address
 * ("about:blank", a URL) count as none.
 */
export function cleanPdfTitle(raw: string): string | null {
  const title = normalizeSpace(raw.replace(/\0/g, ''))
    .replace(/^microsoft (word|excel|powerpoint) - /i, '')
    .replace(/\.(docx?|pdf|rtf|odt|pages|indd|txt|html?)$/i, '')
    .trim();
  if (title === '' || /^(untitled|document\d*|title)$/i.test(title)) return null;
  // A page printed from a browser is titled with its address ("about:blank", "https://…").
  if (/^(about:|https?:\/\/|file:|data:|blob:)/i.test(title)) return null;
  return title;
}

// ---------------------------------------------------------------------------------------------

export async function destroyQuietly(task: LoadingTask): Promise<void> {
  try {
    await task.destroy();
  } catch {
    // already gone
  }
}
