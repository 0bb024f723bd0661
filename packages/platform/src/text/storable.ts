/**
 * Text Postgres cannot keep: a NUL character (refused by text and jsonb) or an
 * unpaired UTF-16 surrogate (not Unicode: jsonb refuses its escape, UTF-8 cannot
 * encode it). Callers' text with either is refused at the gateway (400); text the
 * system produces itself (a model's answer) is made storable (docs/adr/095).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** What is wrong with a text that cannot be stored as it is, or null when it can. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode (unpaired UTF-16 surrogate)';
  return null;
}

/** The text with NUL characters removed and unpaired surrogates replaced by U+FFFD. */
export function storableText(text: string): string {
  if (textProblem(text) === null) return text;
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATES, '\uFFFD');
}

/** `storableText` applied to every string (and key) of a JSON-like value, for jsonb columns. */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => storableJson(v)) as T;
  if (
    value !== null &&
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [storableText(k), storableJson(v)]),
    ) as T;
  }
  return value;
}
