// `npm run eval -- <name> [args...]`: runs eval/<name>.eval.ts (retrieval, reports). Arguments
// that are not the name of an evaluation go to the evaluation named before them, e.g.
// `npm run eval -- reports DIR QUESTIONS.json`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const fileOf = (name: string) => path.join(DIR, `${name}.eval.ts`);
const argv = process.argv.slice(2);
if (argv.length === 0) argv.push('retrieval');
const runs: Array<{ name: string; args: string[] }> = [];
for (const arg of argv) {
  if (/^[a-z][a-z0-9-]*$/.test(arg) && existsSync(fileOf(arg))) runs.push({ name: arg, args: [] });
  else if (runs.length > 0) runs.at(-1)!.args.push(arg);
  else {
    console.error(`eval: no evaluation named ${arg} (eval/${arg}.eval.ts)`);
    process.exit(1);
  }
}
for (const { name, args } of runs) {
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileOf(name), ...args], {
      stdio: 'inherit',
      cwd: process.cwd(),
    });
    child.once('exit', (c) => resolve(c ?? 1));
  });
  if (code !== 0) process.exit(code);
}
