import { describe, expect, it } from 'vitest';
import {
  deploymentCatalogue,
  modelList,
  resolveModel,
  tenantCatalogue,
  type ModelSettings,
} from '../src/models/catalogue.js';
import { chatPriceOf, usageOf } from '../src/models/prices.js';

const openai: ModelSettings = {
  LLM_PROVIDER: 'openai',
  OPENAI_API_KEY: 'sk-1',
  OPENAI_BASE_URL: 'http://openai.test/v1',
  MISTRAL_API_KEY: 'm-1',
  CHAT_MODELS: 'mistral:mistral-large-latest, openai:gpt-4.1-mini',
};

describe('the deployment models', () => {
  it('offer the default, the configured models and always the local answerer', () => {
    const c = deploymentCatalogue(openai);
    expect(c.defaultId).toBe('gpt-4o-mini');
    expect(c.models.map((m) => [m.id, m.provider, m.source])).toEqual([
      ['gpt-4o-mini', 'openai', 'default'],
      ['mistral-large-latest', 'mistral', 'configured'],
      ['gpt-4.1-mini', 'openai', 'configured'],
      ['local-extractive', 'local', 'configured'],
    ]);
    expect(c.models[0]).toMatchObject({ apiKey: 'sk-1', baseUrl: 'http://openai.test/v1' });
  });

  it('leave out a model whose provider has no key, and fall back to the local answerer as default', () => {
    const c = deploymentCatalogue({ LLM_PROVIDER: 'mistral', CHAT_MODELS: 'openai:gpt-4o' });
    expect(c.defaultId).toBe('local-extractive');
    expect(c.models.map((m) => m.id)).toEqual(['local-extractive']);
    expect(c.warnings.join('\n')).toMatch(/MISTRAL_API_KEY is unset/);
  });

  it('use LLM_MODEL as the default model of LLM_PROVIDER', () => {
    expect(deploymentCatalogue({ ...openai, LLM_MODEL: 'gpt-4.1' }).defaultId).toBe('gpt-4.1');
    expect(deploymentCatalogue({ LLM_PROVIDER: 'local' }).defaultId).toBe('local-extractive');
  });
});

describe('a tenant override', () => {
  const deployment = deploymentCatalogue(openai);

  it('becomes the tenant default, listed first, with its own key and URL', () => {
    const c = tenantCatalogue(
      deployment,
      [
        {
          providerId: 'team',
          provider: 'mistral',
          model: 'mistral-small-latest',
          baseUrl: 'http://m.test',
          apiKey: 'own',
        },
      ],
      openai,
    );
    expect(c.defaultId).toBe('mistral-small-latest');
    expect(c.models[0]).toMatchObject({
      source: 'tenant_override',
      providerId: 'team',
      apiKey: 'own',
      baseUrl: 'http://m.test',
    });
    expect(modelList(c).default).toBe('mistral-small-latest');
  });

  it('without a key of its own uses the deployment key of its provider, and replaces a model of the same id', () => {
    const c = tenantCatalogue(
      deployment,
      [{ providerId: 'x', provider: 'openai', model: 'gpt-4o-mini', baseUrl: null, apiKey: null }],
      openai,
    );
    expect(c.models.filter((m) => m.id === 'gpt-4o-mini')).toEqual([
      expect.objectContaining({
        source: 'tenant_override',
        apiKey: 'sk-1',
        baseUrl: 'http://openai.test/v1',
      }),
    ]);
  });

  it('is left out when no key exists for it at all', () => {
    const local = deploymentCatalogue({ LLM_PROVIDER: 'local' });
    const c = tenantCatalogue(
      local,
      [{ providerId: 'x', provider: 'openai', model: 'gpt-4o', baseUrl: null, apiKey: null }],
      { LLM_PROVIDER: 'local' },
    );
    expect(c.defaultId).toBe('local-extractive');
    expect(c.warnings).toHaveLength(1);
  });
});

describe('model resolution', () => {
  const c = deploymentCatalogue(openai);

  it('takes the requested model, else the default, and nothing that is not offered', () => {
    expect(resolveModel(c, 'mistral-large-latest')?.provider).toBe('mistral');
    expect(resolveModel(c, null)?.id).toBe('gpt-4o-mini');
    expect(resolveModel(c, 'gpt-5-turbo-ultra')).toBeNull();
  });

  it('lists models without keys or URLs', () => {
    const text = JSON.stringify(modelList(c));
    expect(text).not.toContain('sk-1');
    expect(text).not.toContain('openai.test');
  });
});

describe('usage and cost', () => {
  it('adds up the rewrite and the answer, in millionths of a cent, exactly', () => {
    expect(
      usageOf('gpt-4o-mini-2024-07-18', [
        { inputTokens: 100, outputTokens: 10 },
        { inputTokens: 1000, outputTokens: 200 },
      ]),
    ).toEqual({
      input_tokens: 1100,
      output_tokens: 210,
      cost_microcents: 1100 * 15 + 210 * 60,
      priced: true,
    });
  });

  it('is free and priced for the local answerer, and unpriced for an unknown model', () => {
    expect(usageOf('local-extractive', [null])).toEqual({
      input_tokens: null,
      output_tokens: null,
      cost_microcents: 0,
      priced: true,
    });
    expect(usageOf('llama-self-hosted', [{ inputTokens: 5, outputTokens: 5 }])).toMatchObject({
      cost_microcents: 0,
      priced: false,
    });
    expect(chatPriceOf('mistral-small-latest')).toEqual({
      inputCentsPerMTok: 10,
      outputCentsPerMTok: 30,
    });
  });
});
