import { describe, expect, it } from 'vitest';
import { historyPairs, type StoredTurnMessage } from '../src/history/history.js';
import { cleanRewrite, localRewrite, rewritePrompt } from '../src/prompt/rewrite.js';

const u = (content: string): StoredTurnMessage => ({ role: 'user', content });
const a = (content: string): StoredTurnMessage => ({ role: 'assistant', content });

describe('the history window', () => {
  it('keeps the last three question and answer pairs, oldest first', () => {
    const messages = [u('q1'), a('a1'), u('q2'), a('a2'), u('q3'), a('a3'), u('q4'), a('a4')];
    expect(historyPairs(messages, 3)).toEqual([
      { user: 'q2', assistant: 'a2' },
      { user: 'q3', assistant: 'a3' },
      { user: 'q4', assistant: 'a4' },
    ]);
  });

  it('skips a question that got no answer, and an answer cancelled before any text', () => {
    expect(historyPairs([u('q1'), u('q2'), a('a2'), u('q3'), a('')], 3)).toEqual([
      { user: 'q2', assistant: 'a2' },
    ]);
  });

  it('is empty for a new conversation', () => {
    expect(historyPairs([], 3)).toEqual([]);
  });
});

describe('the standalone-query rewrite', () => {
  it('shows the model the conversation and the last question', () => {
    const prompt = rewritePrompt(
      [{ user: 'How old is the boiler?', assistant: 'It was installed in 2015.' }],
      'And is it serviced?',
    );
    expect(prompt).toContain('User: How old is the boiler?');
    expect(prompt).toContain('Assistant: It was installed in 2015.');
    expect(prompt).toContain('Last question: And is it serviced?');
  });

  it('reads the query out of the answer, without labels or quotes', () => {
    expect(cleanRewrite('Query: "Is the boiler serviced?"\n', 'x')).toBe('Is the boiler serviced?');
    expect(cleanRewrite('  \n', 'the message')).toBe('the message');
  });

  it('joins the previous question for the local answerer, which writes nothing', () => {
    expect(
      localRewrite([{ user: 'How old is the boiler?', assistant: '...' }], 'and serviced?'),
    ).toBe('How old is the boiler? and serviced?');
    expect(localRewrite([], 'roof')).toBe('roof');
  });
});
