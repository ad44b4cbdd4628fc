// Test support: checks a value against the subset of JSON Schema (2020-12) the generated export
// schemas use, so a test can hold a serialized bundle to the published plugin-sdk/schema/export/
// files without a validator dependency. Unknown keywords fail loudly rather than pass silently.

type Schema = Record<string, unknown>;

const IGNORED = new Set(['$schema', '$id', '$comment', 'title', 'description', 'default', 'format']);
const KNOWN = new Set([...IGNORED, 'type', 'properties', 'required', 'additionalProperties', 'propertyNames', 'items', 'maxItems', 'minItems', 'enum', 'const', 'anyOf', 'oneOf', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum']);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  return typeOf(value) === type;
}

/** Every place where `value` breaks `schema`, as "pointer: problem" lines (empty when it conforms). */
export function schemaErrors(schema: Schema, value: unknown, pointer = ''): string[] {
  const unknown = Object.keys(schema).filter((keyword) => !KNOWN.has(keyword));
  if (unknown.length > 0) return [`${pointer}: the checker does not know ${unknown.join(', ')}`];
  const errors: string[] = [];
  const here = pointer || '/';
  if (typeof schema.type === 'string' && !hasType(value, schema.type)) return [`${here}: expected ${schema.type}, got ${typeOf(value)}`];
  if ('const' in schema && schema.const !== value) errors.push(`${here}: expected ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) errors.push(`${here}: not one of ${JSON.stringify(schema.enum)}`);
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((option) => schemaErrors(option as Schema, value, pointer).length === 0)) errors.push(`${here}: matches none of anyOf`);
  if (Array.isArray(schema.oneOf)) {
    const matching = schema.oneOf.filter((option) => schemaErrors(option as Schema, value, pointer).length === 0).length;
    if (matching !== 1) errors.push(`${here}: matches ${matching === 0 ? 'none' : matching} of oneOf`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) errors.push(`${here}: longer than ${schema.maxLength}`);
    if (typeof schema.minLength === 'number' && length < schema.minLength) errors.push(`${here}: shorter than ${schema.minLength}`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) errors.push(`${here}: does not match ${schema.pattern}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) errors.push(`${here}: below ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) errors.push(`${here}: above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) errors.push(`${here}: more than ${schema.maxItems} items`);
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) errors.push(`${here}: fewer than ${schema.minItems} items`);
    if (schema.items) value.forEach((item, index) => errors.push(...schemaErrors(schema.items as Schema, item, `${pointer}/${index}`)));
  }
  if (typeOf(value) === 'object') {
    const record = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[]) if (!Object.hasOwn(record, key)) errors.push(`${here}: missing ${key}`);
    for (const [key, item] of Object.entries(record)) {
      const child = `${pointer}/${key}`;
      if (schema.propertyNames) errors.push(...schemaErrors(schema.propertyNames as Schema, key, `${child} (name)`));
      if (Object.hasOwn(properties, key)) errors.push(...schemaErrors(properties[key] as Schema, item, child));
      else if (schema.additionalProperties === false) errors.push(`${child}: not allowed`);
      else if (typeof schema.additionalProperties === 'object') errors.push(...schemaErrors(schema.additionalProperties as Schema, item, child));
    }
  }
  return errors;
}
