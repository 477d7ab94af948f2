import { z } from 'zod';

/** A JSON Schema object as OpenAPI 3.1 carries it. */
export type JsonSchema = Record<string, unknown>;

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] =
        k === '$ref' && typeof v === 'string'
          ? v.replace('#/$defs/', '#/components/schemas/')
          : rewriteRefs(v);
    }
    return out;
  }
  return value;
}

/**
 * Converts a zod schema to the JSON Schema (2020-12, as OpenAPI 3.1 uses) of its input (requests)
 * or output (responses). Every schema with a `meta({ id })` becomes a component in `components`
 * (shared by the whole document) and is referred to as `#/components/schemas/<id>`.
 */
export function toJsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  components: Record<string, JsonSchema>,
) {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  delete json.$schema;
  for (const [id, def] of Object.entries(defs)) components[id] = rewriteRefs(def) as JsonSchema;
  return rewriteRefs(json) as JsonSchema;
}
