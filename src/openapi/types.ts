/** A JSON Schema 2020-12 / OpenAPI 3.1 object; kept loose on purpose, the document is checked by tests. */
export type JsonObject = Record<string, unknown>;

/** OpenAPI paths: template → path item. */
export type PathItems = Record<string, JsonObject>;

export const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
export const nullable = (schema: JsonObject): JsonObject => ({ oneOf: [schema, { type: 'null' }] });

/** An instant on the wire: UTC, whole seconds, `Z` (wireTime in src/domain/clock.ts writes it). */
export const dateTime: JsonObject = {
  type: 'string',
  format: 'date-time',
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$',
};
