// Shapes of the gateway's answers the app reads (the gateway's OpenAPI document is the source).

export interface ReportSummary {
  id: string;
  title: string | null;
  filename: string;
  content_type: string;
  size_bytes: number;
  status: string;
  ingestion_error: string | null;
  created_at: string;
}

export interface ReportDetail extends ReportSummary {
  parsed_markdown: string | null;
  sections: number;
  attachments: number;
}

export interface SectionInfo {
  section_name: string;
  section_slug: string;
  level: number;
  order_in_doc: number;
  page_start: number | null;
  page_end: number | null;
}

export interface SectionDetail extends SectionInfo {
  markdown: string;
}

export interface Figure {
  id: string;
  section_name: string | null;
  page_number: number | null;
  storage_url: string;
  original_url: string;
  annotation_source: string;
  annotation_json: Record<string, unknown> | null;
}

export interface Attachment {
  id: string;
  source: 'partner' | 'user_upload';
  attachment_type: string | null;
  note: string | null;
  filename: string;
  size_bytes: number;
  status: string;
  created_at: string;
}

export interface Conversation {
  id: string;
  report_id: string;
  title: string;
  message_count: number;
  last_message_at: string | null;
  updated_at: string;
}

export interface ChunkUsed {
  ref: string;
  section_name: string | null;
  source_type: string;
  attachment_filename: string | null;
  /** Answers stored before citations named files and pages lack these. */
  file?: string;
  page_start?: number | null;
  page_end?: number | null;
  figure_id?: string | null;
  /** How an answer cites the chunk: `Inspection.pdf p. 12`. */
  citation?: string;
}

/** An earlier exchange chat memory recalled into an answer (ADR 133). */
export interface MemoryUsed {
  ref: string;
  conversation_id: string;
  message_id: string;
  created_at: string;
}

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  meta: { mode?: string; chunks_used?: ChunkUsed[]; memory_used?: MemoryUsed[]; partial?: boolean };
  feedback?: 'up' | 'down' | null;
}

export interface ModelList {
  default: string;
  models: Array<{ id: string; provider: string; extractive: boolean }>;
}

export interface IngestStatus {
  id: string;
  status: string;
  ingestion_error: string | null;
}
