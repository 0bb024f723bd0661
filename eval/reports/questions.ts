// The format of a real-report question file (`npm run eval -- reports DIR QUESTIONS.json`).
// Documents are never committed: a question names its PDF by file name inside DIR, the pages
// that state the fact, and a short answer pattern (a few words, never a passage).
import { z } from 'zod';

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'i');
    return true;
  } catch {
    return false;
  }
}

export const ReportQuestion = z.object({
  /** Stable id, unique in the file (used in the per-question results). */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  /** File name of the report inside DIR (no folders). */
  file: z
    .string()
    .min(1)
    .refine((f) => !f.includes('/') && !f.includes('\\'), 'a file name, not a path'),
  /** 1-based PDF pages that state the fact (the baseline's page chunk must be one of them). */
  pages: z.array(z.number().int().positive()).min(1),
  /** The question as a buyer would ask it. */
  question: z.string().min(3).max(300),
  /** Case-insensitive regular expression of the answer, matched against whitespace-normalised text. */
  answer: z.string().min(1).max(80).refine(compiles, 'not a valid regular expression'),
});
export type ReportQuestion = z.infer<typeof ReportQuestion>;

export const QuestionsFile = z
  .object({
    version: z.literal(1),
    description: z.string().optional(),
    questions: z.array(ReportQuestion).min(1),
  })
  .refine((f) => new Set(f.questions.map((q) => q.id)).size === f.questions.length, {
    message: 'question ids must be unique',
  });
export type QuestionsFile = z.infer<typeof QuestionsFile>;

/** Whitespace runs become one space, so a pattern does not depend on line breaks. */
export function normaliseText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Whether `text` states the answer of `q`. */
export function statesAnswer(q: Pick<ReportQuestion, 'answer'>, text: string): boolean {
  return new RegExp(q.answer, 'i').test(normaliseText(text));
}

/** The lead of an answer: its first paragraph, what a reader sees before anything else. Pure. */
export function answerLead(text: string): string {
  return text.trim().split(/\n\s*\n/)[0] ?? '';
}

/** A citation naming a page (`[Inspection.pdf p. 12]`, `[survey.pdf pp. 3–4]`) in the text. Pure. */
export function citesPage(text: string): boolean {
  return /\[[^\]]+ pp?\. \d+/.test(text);
}

/** 1-based rank of the first text that states the answer, or 0 when none of them does. */
export function firstHit(
  q: Pick<ReportQuestion, 'answer'>,
  texts: readonly string[],
  accept: (index: number) => boolean = () => true,
): number {
  const i = texts.findIndex((t, k) => accept(k) && statesAnswer(q, t));
  return i < 0 ? 0 : i + 1;
}
