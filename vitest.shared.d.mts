import type { UserConfig } from 'vitest/config';

/** Vitest settings of one package; `dir` is the package folder. */
export function packageConfig(dir: string, test?: UserConfig['test']): UserConfig;
