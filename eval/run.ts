// `npm run eval -- <name>`: runs eval/<name>.eval.ts (today: retrieval).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const names = process.argv.slice(2);
if (names.length === 0) names.push('retrieval');
for (const name of names) {
  const file = path.join(DIR, `${name}.eval.ts`);
  if (!existsSync(file)) {
    console.error(`eval: no evaluation named ${name} (eval/${name}.eval.ts)`);
    process.exit(1);
  }
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      stdio: 'inherit',
      cwd: path.dirname(DIR),
    });
    child.once('exit', (c) => resolve(c ?? 1));
  });
  if (code !== 0) process.exit(code);
}
