/** The document kinds the platform accepts; equal to `DocumentKind` in @reports/contracts. */
export type DocumentKind = 'pdf' | 'png' | 'jpeg' | 'webp' | 'mhtml' | 'html' | 'docx';

export const DOCUMENT_KINDS: readonly DocumentKind[] = [
  'pdf',
  'png',
  'jpeg',
  'webp',
  'mhtml',
  'html',
  'docx',
];
