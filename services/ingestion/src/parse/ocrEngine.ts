import type { Config } from '@reports/platform';
import { LocalOcrEngine, type OcrEngine } from '@reports/providers';

/**
 * The OCR engine the parse stage reads scans and images with, chosen by `OCR_PROVIDER`.
 * `local`: Tesseract on this machine (pages in parallel up to the cores, one thread each).
 */
export function ocrEngineFor(config: Pick<Config, 'OCR_PROVIDER'>): OcrEngine | null {
  const provider = config.OCR_PROVIDER;
  switch (provider) {
    case 'local':
      return new LocalOcrEngine();
    case 'mistral':
      // Part B (Mistral OCR) returns its engine here. Until then no engine: PDF pages without
      // a text layer and image uploads fail with a readable `needs_ocr` message.
      return null;
    default: {
      const unknown: never = provider;
      throw new Error(`unknown OCR_PROVIDER ${String(unknown)}`);
    }
  }
}
