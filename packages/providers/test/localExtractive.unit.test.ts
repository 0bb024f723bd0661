import { describe, expect, it } from 'vitest';
import {
  LocalExtractiveModel,
  extractiveAnswer,
  queryTerms,
  sentencesOf,
  streamPieces,
  type ChatStreamEvent,
} from '../src/index.js';

const DOCS = [
  {
    ref: 'C1',
    title: 'Roof',
    text: '## Roof\n\nThe roof covering is natural slate laid on battens. Some slates are slipped.',
  },
  {
    ref: 'C2',
    title: 'Drainage',
    text: 'The gutters are cast iron and leak at the joints.\n\n| Item | State |\n|---|---|\n| Downpipe | cracked |',
  },
  { ref: 'C3', title: 'Heating', text: 'A gas boiler installed in 2015 heats the house.' },
];

describe('the local extractive answerer', () => {
  it('quotes the sentences that share most words with the question, cited', () => {
    expect(extractiveAnswer(DOCS, 'What is the roof covering made of?')).toBe(
      'From the report:\n\n> The roof covering is natural slate laid on battens. [C1]',
    );
  });

  it('quotes several passages in reading order', () => {
    const answer = extractiveAnswer(
      DOCS,
      'Is the boiler from 2015, are the gutters leaking, are slates slipped?',
    );
    expect(answer.split('\n\n').slice(1)).toEqual([
      '> Some slates are slipped. [C1]',
      '> The gutters are cast iron and leak at the joints. [C2]',
      '> A gas boiler installed in 2015 heats the house. [C3]',
    ]);
  });

  it('gives the same answer every time', () => {
    const q = 'gutters downpipe boiler';
    expect(extractiveAnswer(DOCS, q)).toBe(extractiveAnswer(DOCS, q));
  });

  it('says so when nothing matches, and when there is no text at all', () => {
    expect(extractiveAnswer(DOCS, 'swimming pool')).toMatch(/^No passage of the report matches/);
    expect(extractiveAnswer([], 'roof')).toMatch(/no report text to quote yet/);
  });

  it('ignores words that say nothing about the question', () => {
    expect(queryTerms('What is the age of the boiler, please?')).toEqual(['age', 'boiler']);
  });

  it('reads sentences out of markdown, without headings marks, table rules or pipes', () => {
    expect(sentencesOf(DOCS[1]!.text)).toEqual(
      ['The gutters are cast iron and leak at the joints.', 'Downpipe cracked'].filter(
        (s) => s.length >= 12,
      ),
    );
  });

  it('streams the answer in pieces that join back to it, then says it is done', async () => {
    const model = new LocalExtractiveModel();
    const events: ChatStreamEvent[] = [];
    for await (const e of model.stream({
      messages: [],
      documents: DOCS,
      query: 'gutters',
      maxTokens: 100,
    }))
      events.push(e);
    const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    expect(text).toBe(extractiveAnswer(DOCS, 'gutters'));
    expect(events.at(-1)).toEqual({
      type: 'done',
      finishReason: 'stop',
      usage: null,
      model: 'local-extractive',
    });
    expect(model.writer).toBeNull();
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const events: ChatStreamEvent[] = [];
    for await (const e of new LocalExtractiveModel().stream({
      messages: [],
      documents: DOCS,
      query: 'gutters',
      maxTokens: 100,
      signal: controller.signal,
    }))
      events.push(e);
    expect(events).toEqual([]);
  });

  it('cuts text at spaces into pieces of about the asked size', () => {
    const pieces = streamPieces('one two three four five six seven', 8);
    expect(pieces.join('')).toBe('one two three four five six seven');
    expect(pieces.every((p) => p.length <= 14)).toBe(true);
  });
});
