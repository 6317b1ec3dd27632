/**
 * Lambda event filtering, the subset this project uses: a pattern is an object whose leaves are
 * arrays of allowed values; a record matches when every key of the pattern matches (AND), and a
 * leaf matches when the record's value is one of the listed values (OR). The event source mapping
 * applies the pattern deployed; the local stream poller applies it with this function, and the
 * dispatcher re-checks it, so both runtimes dispatch exactly the same records.
 */
export type FilterValue = string | number | boolean | null;
export type FilterPattern = { readonly [key: string]: FilterPattern | readonly FilterValue[] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function matchesFilterPattern(pattern: FilterPattern, value: unknown): boolean {
  for (const [key, expected] of Object.entries(pattern)) {
    const actual = isObject(value) ? value[key] : undefined;
    if (Array.isArray(expected)) {
      const allowed = expected as readonly FilterValue[];
      if (allowed.some((entry) => typeof entry === 'object' && entry !== null)) {
        throw new Error(`Filter operators are not supported here (key "${key}"): list exact values only.`);
      }
      const candidates = Array.isArray(actual) ? actual : [actual];
      if (!candidates.some((candidate) => allowed.includes(candidate as FilterValue))) return false;
    } else if (!matchesFilterPattern(expected as FilterPattern, actual)) {
      return false;
    }
  }
  return true;
}
