// The pdf.js worker module ships no types; we only hand its export to pdf.js's "fake worker".
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
