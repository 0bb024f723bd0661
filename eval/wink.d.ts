// Types for the parts of wink-bm25-text-search the evaluation uses (the package ships none).
declare module 'wink-bm25-text-search' {
  interface Bm25Engine {
    defineConfig(config: {
      fldWeights: Record<string, number>;
      bm25Params?: { k1?: number; b?: number; k?: number };
    }): boolean;
    definePrepTasks(tasks: Array<(text: string) => string[]>, field?: string): number;
    addDoc(doc: Record<string, string>, id: string): number;
    consolidate(precision?: number): boolean;
    search(text: string, limit?: number): Array<[string, number]>;
  }
  export default function bm25(): Bm25Engine;
}
