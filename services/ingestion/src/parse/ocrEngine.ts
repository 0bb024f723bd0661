import { ANNOTATION_JSON_SCHEMA } from '@reports/contracts';
import type { Config } from '@reports/platform';
import { LocalOcrEngine, MistralOcrEngine, type OcrEngine } from '@reports/providers';

/**
 * The OCR engine the parse stage reads scans and images with, chosen by `OCR_PROVIDER`.
 * `local`: Tesseract on this machine (pages in parallel up to the cores, one thread each).
 */
export function ocrEngineFor(
  config: Pick<
    Config,
    'OCR_PROVIDER' | 'MISTRAL_API_KEY' | 'MISTRAL_BASE_URL' | 'MISTRAL_OCR_MODEL' | 'OCR_TIMEOUT_MS'
  >,
): OcrEngine | null {
  const provider = config.OCR_PROVIDER;
  switch (provider) {
    case 'local':
      return new LocalOcrEngine();
    case 'mistral':
      // Without a key the gateway refuses PDF and image uploads (503 ocr_unavailable); one that
      // got through anyway (queued before the key went) fails with a readable `needs_ocr`.
      if (!config.MISTRAL_API_KEY) return null;
      // Whole documents: every page's markdown, the images and their annotations (documents' ocrDocument.ts).
      return new MistralOcrEngine({
        apiKey: config.MISTRAL_API_KEY,
        serverURL: config.MISTRAL_BASE_URL,
        model: config.MISTRAL_OCR_MODEL,
        timeoutMs: config.OCR_TIMEOUT_MS,
        imageAnnotationSchema: ANNOTATION_JSON_SCHEMA,
      });
    default: {
      const unknown: never = provider;
      throw new Error(`unknown OCR_PROVIDER ${String(unknown)}`);
    }
  }
}
