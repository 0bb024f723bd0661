import type { FastifyInstance } from 'fastify';
import { AppError } from '@reports/contracts';
import { textProblem } from '@reports/platform';

export { textProblem };

/**
 * The first string (value or object key) in a parsed request part that has a
 * `textProblem`, as `where.path: problem`. Walks iteratively, so a deeply nested
 * body cannot exhaust the stack.
 */
export function findTextProblem(value: unknown, where: string): string | null {
  const stack: Array<[unknown, string]> = [[value, where]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) return `${path}: text ${problem}`;
    } else if (Array.isArray(item)) {
      item.forEach((v, i) => stack.push([v, `${path}.${i}`]));
    } else if (item !== null && typeof item === 'object') {
      for (const [key, v] of Object.entries(item)) {
        const problem = textProblem(key);
        if (problem) return `${path}: a field name ${problem}`;
        stack.push([v, `${path}.${key}`]);
      }
    }
  }
  return null;
}

/** Throws 400 `bad_request` naming the field when caller text cannot be stored (docs/adr/095). */
export function assertStorableText(value: unknown, where: string): void {
  const problem = findTextProblem(value, where);
  if (problem) throw new AppError('bad_request', problem);
}

/**
 * Every route, before its schema is checked: the body, query string and path
 * parameters hold only text that can be stored (docs/adr/095). Multipart fields
 * are checked where the form is read (ingest/upload.ts).
 */
export function registerTextHygiene(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    assertStorableText(request.params, 'params');
    assertStorableText(request.query, 'query');
    assertStorableText(request.body, 'body');
  });
}
