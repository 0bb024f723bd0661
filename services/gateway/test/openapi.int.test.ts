import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './support/gateway.js';

// The OpenAPI document generated from the zod contracts is committed; this test
// fails when the routes or contracts change and it was not regenerated
// (`npm run openapi` rewrites it).
const FILE = new URL('../openapi.json', import.meta.url);

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

describe('the committed OpenAPI document', () => {
  it('matches what the running gateway generates', async () => {
    const generated = `${JSON.stringify(gw.app.swagger(), null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI === '1') await writeFile(FILE, generated);
    const committed = await readFile(FILE, 'utf8').catch(() => '');
    expect(committed, 'openapi.json is stale: run `npm run openapi` and commit it').toBe(generated);
  });
});
