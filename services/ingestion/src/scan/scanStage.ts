import type { Readable } from 'node:stream';
import { sniffDocumentKind } from '@reports/documents';
import type { ObjectStore, Pool, StageDefinition } from '@reports/platform';
import { loadTarget } from '../targets.js';

/** The first `n` bytes of a stream; the rest is never read. */
async function readHead(stream: Readable, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= n) break; // leaving the loop destroys the stream
  }
  return Buffer.concat(chunks).subarray(0, n);
}

export interface ScanDeps {
  pool: Pool;
  objectStore: ObjectStore;
}

/**
 * Scan: the stored object exists, has the recorded size, and its bytes are the
 * recorded type. A mismatch is permanent (the file changed under us or the
 * record is wrong); a missing target means the report was deleted: skip.
 */
export function scanStage(deps: ScanDeps): StageDefinition<'ReportUploaded'> {
  return {
    stage: 'scan',
    async run(event) {
      const target = await loadTarget(deps.pool, event.target_kind, event.target_id);
      if (!target) return { outcome: 'skipped', reason: 'target deleted' };
      const info = await deps.objectStore.stat(target.object_key);
      if (!info) return { outcome: 'failed', reason: 'the uploaded file is missing from storage' };
      if (info.size !== target.size_bytes) {
        return {
          outcome: 'failed',
          reason: `stored file has ${info.size} bytes, expected ${target.size_bytes}`,
        };
      }
      const head = await readHead(await deps.objectStore.get(target.object_key), 8192);
      const kind = sniffDocumentKind(head);
      if (kind !== target.document_kind) {
        return {
          outcome: 'failed',
          reason: `stored file is ${kind ?? 'of an unknown type'}, expected ${target.document_kind}`,
        };
      }
      return {
        outcome: 'done',
        emit: {
          type: 'ReportScanned',
          data: { document_kind: kind, page_count: null, cost_cents: 0 },
        },
      };
    },
  };
}
