import { describe, expect, it } from 'vitest';
import { parseModelAnnotation, userPrompt, SYSTEM_PROMPT } from '../src/models/annotator.js';
import { CostMeter, priceOf } from '../src/models/prices.js';
import { sourceForBaseUrl } from '@reports/providers';
import { defaultAnnotationModel } from '../src/models/fromConfig.js';

const answer = {
  image_type: 'floor_plan',
  summary: 'Ground floor plan with kitchen, lounge and hall, dimensions marked in metres.',
  entities: ['kitchen', 'lounge', 'hall'],
};

describe('parseModelAnnotation', () => {
  it('reads a JSON object answer', () => {
    expect(parseModelAnnotation(JSON.stringify(answer))).toEqual(answer);
  });

  it('reads an answer wrapped in a ```json fence and lower-cases the image type', () => {
    const fenced =
      '```json\n' + JSON.stringify({ ...answer, image_type: ' Floor_Plan ' }) + '\n```';
    expect(parseModelAnnotation(fenced)).toEqual(answer);
  });

  it('keeps extra keys the model added', () => {
    expect(parseModelAnnotation(JSON.stringify({ ...answer, rooms: 3 }))).toMatchObject({
      rooms: 3,
    });
  });

  it('refuses text that is not JSON, JSON that is not an object, and the wrong shape', () => {
    expect(parseModelAnnotation('It is a floor plan.')).toBeNull();
    expect(parseModelAnnotation('{"image_type": "photo"')).toBeNull();
    expect(parseModelAnnotation('[1, 2]')).toBeNull();
    expect(parseModelAnnotation(JSON.stringify({ summary: 'x', entities: [] }))).toBeNull();
    expect(parseModelAnnotation(JSON.stringify({ ...answer, entities: 'kitchen' }))).toBeNull();
  });
});

describe('the prompt', () => {
  it('names the section, the page and the text found near the figure', () => {
    const text = userPrompt({ section_name: 'Roof', page_number: 4, ocr_text: '  SLATE\n ROOF ' });
    expect(text).toContain('section "Roof"');
    expect(text).toContain('page 4');
    expect(text).toContain('SLATE ROOF');
  });

  it('says nothing it does not know', () => {
    expect(userPrompt({ section_name: null, page_number: null, ocr_text: null })).toBe(
      'Annotate this figure.',
    );
  });

  it('asks for the three keys of the spec', () => {
    for (const key of ['"image_type"', '"summary"', '"entities"'])
      expect(SYSTEM_PROMPT).toContain(key);
  });
});

describe('prices', () => {
  it('finds a dated model by its longest listed prefix', () => {
    expect(priceOf('gpt-4o-mini-2024-07-18')).toEqual(priceOf('gpt-4o-mini'));
    expect(priceOf('gpt-4o-2024-08-06')).toEqual(priceOf('gpt-4o'));
    expect(priceOf('models/gemini-2.5-flash')).toEqual(priceOf('gemini-2.5-flash'));
    expect(priceOf('mistral-small-latest')).toEqual(priceOf('mistral-small'));
  });

  it('does not price a self-hosted model', () => {
    expect(priceOf('llava:13b')).toBeNull();
  });

  it('adds tokens of many calls and rounds up to whole cents once', () => {
    const meter = new CostMeter(priceOf('gpt-4o-mini'));
    for (let i = 0; i < 10; i++) meter.add({ input_tokens: 1000, output_tokens: 100 });
    // 10 * (1000 * 15 + 100 * 60) = 210000 millionths of a cent
    expect(meter.cents).toBe(1);
    for (let i = 0; i < 100; i++) meter.add({ input_tokens: 1000, output_tokens: 100 });
    expect(meter.cents).toBe(3);
    expect(meter.inputTokens).toBe(110_000);
  });

  it('costs nothing without a price, and says so', () => {
    const meter = new CostMeter(null);
    meter.add({ input_tokens: 5000, output_tokens: 500 });
    expect(meter.cents).toBe(0);
    expect(meter.priced).toBe(false);
  });
});

describe('the annotation source of an OpenAI-compatible endpoint', () => {
  it('is gemini for Google’s endpoint and openai otherwise', () => {
    expect(sourceForBaseUrl('https://generativelanguage.googleapis.com/v1beta/openai/')).toBe(
      'gemini',
    );
    expect(sourceForBaseUrl(undefined)).toBe('openai');
    expect(sourceForBaseUrl('http://127.0.0.1:11434/v1')).toBe('openai');
    expect(sourceForBaseUrl('not a url')).toBe('openai');
  });

  it('picks a default model to match', () => {
    expect(defaultAnnotationModel('openai', 'gemini')).toBe('gemini-2.5-flash');
    expect(defaultAnnotationModel('openai', 'openai')).toBe('gpt-4o-mini');
    expect(defaultAnnotationModel('mistral', 'mistral')).toBe('mistral-small-latest');
  });
});
