/** Type guards for values of unknown shape (parsed JSON, thrown errors), so runtime code needs no casts. */

/** A plain object (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value[name]` when `value` is an object, else undefined (e.g. an error's `name` or `code`). */
export const propertyOf = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null ? Reflect.get(value, name) : undefined;
