/** What a leaked canary is replaced with in an answer. */
export const REDACTED = '[redacted]';

/**
 * Removes a canary from a streamed answer. A canary can arrive split across pieces,
 * so the filter holds back the last `canary.length - 1` characters of what it has
 * seen until the next piece (or the end) shows they do not start one. Matching
 * ignores case. Without a canary it passes text through unchanged. Pure.
 */
export class CanaryFilter {
  private held = '';
  /** How many times the canary was found. */
  redactions = 0;

  constructor(private readonly canary: string | null | undefined) {}

  /** The text that can be sent now. */
  push(text: string): string {
    if (!this.canary) return text;
    const buffer = this.redact(this.held + text);
    const keep = Math.min(buffer.length, this.canary.length - 1);
    this.held = buffer.slice(buffer.length - keep);
    return buffer.slice(0, buffer.length - keep);
  }

  /** What is still held, at the end of the answer. */
  flush(): string {
    const rest = this.canary ? this.redact(this.held) : '';
    this.held = '';
    return rest;
  }

  private redact(text: string): string {
    const canary = this.canary!;
    const lower = canary.toLowerCase();
    let out = '';
    let from = 0;
    for (;;) {
      const at = text.toLowerCase().indexOf(lower, from);
      if (at < 0) return out + text.slice(from);
      this.redactions += 1;
      out += text.slice(from, at) + REDACTED;
      from = at + canary.length;
    }
  }
}
