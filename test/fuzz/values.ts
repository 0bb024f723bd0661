import fc from 'fast-check';

/**
 * Hostile values, as fast-check arbitraries so a run is reproducible from its seed. Each names
 * what it is, so a finding says which kind of value caused it.
 */
export interface Hostile {
  kind: string;
  value: unknown;
}

/**
 * Arrays nested `depth` deep. Too deep for this process's own `JSON.stringify`: it is written
 * into the body text by `toJson`.
 */
export class DeepNesting {
  constructor(readonly depth: number) {}
}

/** `JSON.stringify`, with each `DeepNesting` written out as its nested arrays. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v instanceof DeepNesting ? `@@deep:${v.depth}@@` : v,
  ).replace(
    /"@@deep:(\d+)@@"/g,
    (_m, d: string) => `${'['.repeat(Number(d))}1${']'.repeat(Number(d))}`,
  );
}

const named = (kind: string, arb: fc.Arbitrary<unknown>): fc.Arbitrary<Hostile> =>
  arb.map((value) => ({ kind, value }));

const UUID = '6f1c2b9e-3a4d-4e5f-8a6b-7c8d9e0f1a2b';

/** Strings a handler may choke on: control characters, broken UTF-16, huge, traversal, markup. */
export const hostileString: fc.Arbitrary<Hostile> = fc.oneof(
  // The two kinds that once gave 500s weigh more: a bounded pass should meet them on every field.
  {
    weight: 4,
    arbitrary: named(
      'nul',
      fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
    ),
  },
  {
    weight: 4,
    arbitrary: named(
      'lone-surrogate',
      fc.constantFrom('\uD800', 'a\uDFFFb', '\uDBFF\uDBFF', 'x\uD83D'),
    ),
  },
  named(
    'huge-string',
    fc.integer({ min: 10_000, max: 300_000 }).map((n) => 'A'.repeat(n)),
  ),
  named(
    'traversal',
    fc.constantFrom(
      '../../../etc/passwd',
      '..%2f..%2fetc%2fpasswd',
      '%2e%2e/%2e%2e/',
      '....//....//',
      'C:\\Windows\\win.ini',
      '/dev/zero',
    ),
  ),
  named(
    'markup-and-sql',
    fc.constantFrom(
      "'; DROP TABLE reports; --",
      '<script>alert(1)</script>',
      '{{7*7}}',
      '${jndi:ldap://127.0.0.1/a}',
      '%s%s%s%n',
    ),
  ),
  named('unicode', fc.string({ unit: 'grapheme', maxLength: 64 })),
  named('binary', fc.string({ unit: 'binary', maxLength: 64 })),
  named('empty', fc.constant('')),
  named('whitespace', fc.constantFrom(' ', '\t\n\r', '\u00a0\u2028\u2029', '\ufeff')),
  named('uppercase-uuid', fc.constant(UUID.toUpperCase())),
  named(
    'malformed-uuid',
    fc.constantFrom(
      `${UUID}0`,
      UUID.slice(1),
      UUID.replaceAll('-', ''),
      `{${UUID}}`,
      '00000000-0000-0000-0000-00000000000g',
    ),
  ),
);

/** Numbers out of every range: negative, fractional, huge, not finite, as strings. */
export const hostileNumber: fc.Arbitrary<Hostile> = fc.oneof(
  named(
    'number-extreme',
    fc.constantFrom(-1, 0, 1.5, -0.5, 2 ** 53 + 1, 1e308, -1e308, Number.MAX_SAFE_INTEGER),
  ),
  named('number-as-text', fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e999', '0x10', '1_0')),
  named('integer', fc.integer()),
  named('double', fc.double()),
);

/** A value of the wrong JSON type. */
export const wrongType: fc.Arbitrary<Hostile> = fc.oneof(
  named('null', fc.constant(null)),
  named('boolean', fc.boolean()),
  named('array', fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 })),
  named('object', fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }))),
  named(
    'deep-nesting',
    fc.integer({ min: 500, max: 5_000 }).map((depth) => new DeepNesting(depth)),
  ),
  named('json', fc.jsonValue({ maxDepth: 3 })),
);

/** Anything: what replaces one field of an otherwise valid request. */
export const hostileValue: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 2, arbitrary: wrongType },
);

/** What a path or query parameter becomes (always text on the wire). */
export const hostileText: fc.Arbitrary<Hostile> = fc
  .oneof({ weight: 4, arbitrary: hostileString }, { weight: 1, arbitrary: hostileNumber })
  .map((h) => ({ kind: h.kind, value: String(h.value) }));
