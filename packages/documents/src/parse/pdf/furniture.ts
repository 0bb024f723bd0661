import type { Line } from './lines.js';

// Layout analysis

/**
 * Running headers and footers: the same text (digits ignored) at the same height on at least
 * half of the pages (and at least 3), near the top or bottom of the page.
 */
export function removeRunningLines(pages: Line[][], heights: number[]): Line[][] {
  if (pages.length < 3) return pages;
  const key = (l: Line): string =>
    `${Math.round(l.y / 3)}|${l.text.replace(/\d+/g, '#').toLowerCase()}`;
  const counts = new Map<string, number>();
  pages.forEach((lines, i) => {
    const h = heights[i] ?? 842;
    const seen = new Set<string>();
    for (const l of lines) {
      const nearEdge = l.y > h * 0.88 || l.y < h * 0.12;
      if (nearEdge) seen.add(key(l));
    }
    for (const k of seen) counts.set(k, (counts.get(k) ?? 0) + 1);
  });
  const threshold = Math.max(3, Math.ceil(pages.length / 2));
  const running = new Set([...counts].filter(([, n]) => n >= threshold).map(([k]) => k));
  if (running.size === 0) return pages;
  return pages.map((lines) => lines.filter((l) => !running.has(key(l))));
}
