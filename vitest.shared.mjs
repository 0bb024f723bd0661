// Shared vitest settings: every package writes a JSON report when
// VITEST_RESULTS_DIR is set (npm test adds them up into one closing line).
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export function packageConfig(dir, test = {}) {
  const name = path.basename(path.dirname(dir)) + '-' + path.basename(dir);
  const resultsDir = process.env.VITEST_RESULTS_DIR;
  return defineConfig({
    test: {
      include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      ...(resultsDir
        ? {
            reporters: ['default', 'json'],
            outputFile: { json: path.join(resultsDir, `${name}.json`) },
          }
        : {}),
      ...test,
    },
  });
}
