/** A section as the name rule sees it: its display name and its slug. */
export interface NamedSection {
  name: string;
  slug: string;
}

/**
 * Which section `wanted` names (`GET /reports/{id}/sections/{section_name}`, the chat's
 * `section`): the first, in the order given, whose name is exactly it, else whose slug is,
 * else whose name matches ignoring case (NFC, English case folding). `key` reads a row's name
 * and slug. Pure.
 */
export function pickSectionBy<T>(
  sections: readonly T[],
  wanted: string,
  key: (section: T) => NamedSection,
): T | undefined {
  const folded = foldSectionName(wanted);
  return (
    sections.find((s) => key(s).name === wanted) ??
    sections.find((s) => key(s).slug === wanted) ??
    sections.find((s) => foldSectionName(key(s).name) === folded)
  );
}

function foldSectionName(name: string): string {
  return name.normalize('NFC').toLocaleLowerCase('en');
}
