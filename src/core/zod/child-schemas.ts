import { ownValue } from '../json-schema/own-properties.js';
import { type AnyDef, defOf, type Schema } from './def.js';

/** The field an object's shape declares under `key` (an own key, never an inherited name), else undefined. */
export function shapeField(def: AnyDef, key: PropertyKey): Schema | undefined {
  return typeof key === 'string' ? (ownValue(def.shape, key) as Schema | undefined) : undefined;
}

/** The schema of a tuple's item `index`: its own item, the rest schema past them, else undefined. */
export function tupleItem(def: AnyDef, index: number): Schema | undefined {
  const items = def.items ?? [];
  return index < items.length ? items[index] : (def.rest ?? undefined);
}

/**
 * The schema that validates child `key` of a container schema: the declared field or else the catch-all
 * of an object, a record's values, an array's element, a tuple's item. Undefined when none does.
 */
export function childSchema(schema: Schema, key: PropertyKey): Schema | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return shapeField(def, key) ?? def.catchall;
    case 'record':
      return def.valueType;
    case 'array':
      return def.element;
    case 'tuple':
      return typeof key === 'number' ? tupleItem(def, key) : undefined;
    default:
      return undefined;
  }
}
