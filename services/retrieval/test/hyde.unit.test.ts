import { describe, expect, it } from 'vitest';
import { countWords, hydeEmbeddingText, wantsHyde } from '../src/hyde/hyde.js';

describe('when HyDE is asked for', () => {
  it('asks for it for queries under 4 words', () => {
    expect(wantsHyde('roof', 'folder')).toBe(true);
    expect(wantsHyde('damp in cellar', 'folder')).toBe(true);
  });

  it('does not for 4 words or more in folder scope', () => {
    expect(wantsHyde('is the roof sound', 'folder')).toBe(false);
  });

  it('always does in multi_report scope', () => {
    expect(wantsHyde('is the roof sound and dry', 'multi_report')).toBe(true);
  });

  it('counts words, not punctuation', () => {
    expect(countWords('  roof  ?  — slates! ')).toBe(2);
    expect(countWords('façade 2024 état')).toBe(3);
  });

  it('embeds the query together with the passage', () => {
    expect(hydeEmbeddingText(' roof ', ' The roof is sound. ')).toBe('roof\n\nThe roof is sound.');
  });
});
