/** Dimensions of every stored embedding (chunks.embedding is vector(1536)). */
export const EMBEDDING_DIMENSIONS = 1536;

/** Turns texts into unit vectors of EMBEDDING_DIMENSIONS. */
export interface Embedder {
  /** Provider name, recorded with each chunk and stage run (`local`, `openai`, `mistral`). */
  readonly provider: string;
  /** Model id, recorded as chunks.embedding_model. */
  readonly model: string;
  /** Largest batch one call accepts. */
  readonly maxBatch: number;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

/** Scales a vector to unit length; the zero vector stays zero. */
export function normalise(v: number[]): number[] {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm === 0 ? v : v.map((x) => x / norm);
}
