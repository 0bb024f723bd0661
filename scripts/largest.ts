import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// `node --import tsx scripts/largest.ts [ROOT] [N]`: the N longest functions and files (in lines)
// of the TypeScript sources under services/*/src and packages/*/src, for reviews of the code's shape.
const root = path.resolve(process.argv[2] ?? '.');
const top = Number(process.argv[3] ?? 10);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') out.push(...sources(p));
    } else if (/\.tsx?$/.test(name) && !/\.d\.ts$/.test(name)) out.push(p);
  }
  return out;
}

const files: string[] = [];
for (const group of ['services', 'packages']) {
  const base = path.join(root, group);
  for (const name of readdirSync(base)) {
    const src = path.join(base, name, 'src');
    try {
      if (statSync(src).isDirectory()) files.push(...sources(src));
    } catch {
      // a folder without src
    }
  }
}

const functions: { name: string; lines: number }[] = [];
const fileLines: { name: string; lines: number }[] = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const rel = path.relative(root, file);
  fileLines.push({ name: rel, lines: text.split('\n').length });
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node, owner: string): void => {
    let name = owner;
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node)
    ) {
      const declared =
        (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name
          ? node.name.getText(sf)
          : ts.isVariableDeclaration(node.parent)
            ? node.parent.name.getText(sf)
            : null;
      if (declared) {
        name = `${rel}:${declared}`;
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        functions.push({ name, lines: end - start + 1 });
      }
    }
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(sf, rel);
}

const show = (title: string, rows: { name: string; lines: number }[]) => {
  console.log(title);
  for (const r of rows.sort((a, b) => b.lines - a.lines).slice(0, top))
    console.log(`${String(r.lines).padStart(6)}  ${r.name}`);
};
show('longest named functions (lines)', functions);
show('longest files (lines)', fileLines);
