import { describe, expect, it } from 'vitest';
import { doerAsked, doersOf } from '../src/index.js';

const FUNCTION_WORDS = new Set(['is', 'the', 'of', 'was', 'did', 'out']);

describe('doersOf', () => {
  it('names the one who does what a verb form says, in each likely spelling', () => {
    expect(doersOf('appraised')).toContain('appraiser');
    expect(doersOf('inspected')).toContain('inspector');
    expect(doersOf('owns')).toContain('owner');
    expect(doersOf('owned')).toContain('owner');
    expect(doersOf('supplies')).toEqual(['supplier']);
    expect(doersOf('provides')).toEqual(['provider']);
    expect(doersOf('buying')).toContain('buyer');
    expect(doersOf('Manufactured')).toContain('manufacturer');
  });

  it('names none for a word that is no inflected verb form, or a doer already', () => {
    for (const word of ['buyer', 'thermal', 'made', 'status', 'borrowers', 'users', 'own', '2x6s'])
      expect(doersOf(word), word).toEqual([]);
  });
});

describe('doerAsked', () => {
  it('finds the first word a "who" question asks, past function words', () => {
    expect(doerAsked('Who appraised the property?', FUNCTION_WORDS)).toEqual({
      index: 1,
      word: 'appraised',
      doers: doersOf('appraised'),
    });
    expect(doerAsked('Who is buying the property?', FUNCTION_WORDS)?.word).toBe('buying');
  });

  it('asks for no doer of another question, a verb of two words, or a noun', () => {
    expect(doerAsked('When was the property appraised?', FUNCTION_WORDS)).toBeNull();
    // "carried out" is done by someone, not by a carrier.
    expect(doerAsked('Who carried out the inspection?', FUNCTION_WORDS)).toBeNull();
    expect(doerAsked('Who is the appraiser?', FUNCTION_WORDS)).toBeNull();
    expect(doerAsked('Who?', FUNCTION_WORDS)).toBeNull();
  });
});
