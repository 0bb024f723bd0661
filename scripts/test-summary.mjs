// Adds up the JSON reports vitest wrote for each package and prints one
// closing line, `tests: N passed, N failed`, for CI to read.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let files = 0;
for (const name of await readdir(dir).catch(() => [])) {
  if (!name.endsWith('.json')) continue;
  const report = JSON.parse(await readFile(path.join(dir, name), 'utf8'));
  files += 1;
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
}
if (files === 0 || passed === 0) {
  console.log('tests: 0 passed, 1 failed (no test reports were written)');
  process.exit(1);
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
