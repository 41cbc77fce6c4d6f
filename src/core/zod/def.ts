/**
 * Read-only access to Zod v4 schema internals (`schema._zod`): the one file that reads them.
 *
 * Repair must judge a value by the ORIGINAL schema without ever running it (no parse, no
 * transform, no refinement), so it reads the definitions Zod keeps on every schema; error messages,
 * the converter and the mount read them too. Zod types `def` per schema class; this file gives one
 * loose view of the fields mcp-mount reads, so the rest of the code does not cast at every step.
 * Anything that does not look like a Zod v4 schema is treated by repair as "accepts anything", which
 * means repair leaves the value alone.
 */
import type { z } from 'zod';

export type Schema = z.core.$ZodType;

/** The union of the `def` fields mcp-mount reads. Every field is optional because each schema kind has only some. */
export interface AnyDef {
  type: string;
  innerType?: Schema;
  in?: Schema;
  getter?: () => Schema;
  options?: readonly Schema[];
  discriminator?: string;
  left?: Schema;
  right?: Schema;
  shape?: Readonly<Record<string, Schema>>;
  catchall?: Schema;
  element?: Schema;
  items?: readonly Schema[];
  rest?: Schema | null;
  keyType?: Schema;
  valueType?: Schema;
  /** Records: `'loose'` passes keys the key schema refuses through as sent. */
  mode?: string;
  /** Records: `z.partialRecord`, whose finite key set may each be left out. */
  partial?: boolean;
  values?: readonly unknown[];
  entries?: Readonly<Record<string, unknown>>;
  coerce?: boolean;
  format?: string;
  checks?: ReadonlyArray<{ _zod?: { def?: { format?: string } } }>;
}

/** True when `x` carries Zod 4 internals at all (Zod 3 schemas do not). */
export function hasZodInternals(x: unknown): boolean {
  return typeof x === 'object' && x !== null && '_zod' in x;
}

/** True when `x` carries Zod v4 internals. */
export function isSchema(x: unknown): x is Schema {
  return hasZodInternals(x) && typeof (x as any)._zod?.def?.type === 'string';
}

export function defOf(schema: Schema): AnyDef {
  return schema._zod.def as unknown as AnyDef;
}

/**
 * The schema behind a `z.lazy`. Zod caches the getter's result on `_zod.innerType`; use it when
 * present so a recursive schema resolves to the same object each time (memo tables rely on it).
 */
export function lazyTarget(schema: Schema): Schema | undefined {
  const cached = (schema._zod as any).innerType;
  if (isSchema(cached)) return cached;
  const got = defOf(schema).getter?.();
  return isSchema(got) ? got : undefined;
}

/** True for `z.never()`: as an object's catch-all it refuses every key the shape does not declare. */
export function isNever(schema: unknown): boolean {
  return isSchema(schema) && defOf(schema).type === 'never';
}

/** The values of a `z.enum` as Zod lists them, or undefined when it keeps none. */
export function enumValues(schema: Schema): Iterable<unknown> | undefined {
  return (schema._zod as any).values;
}

/**
 * The values an object (or a discriminated union) pins for property `key`, as Zod records them on
 * `_zod.propValues`: literals, enum values and nested discriminated unions' tags.
 */
export function propValues(schema: Schema, key: string): ReadonlySet<unknown> | undefined {
  return (schema._zod as any).propValues?.[key];
}

/** Number formats that only admit integers (`z.int()`, `.int()`, `z.int32()`, `z.uint32()`). */
const INT_FORMATS = new Set(['safeint', 'int32', 'uint32']);

/** True when a `number` schema only accepts integers, through its format or an `.int()` check. */
export function isIntegerNumber(def: AnyDef): boolean {
  if (def.type === 'int') return true;
  if (def.format && INT_FORMATS.has(def.format)) return true;
  for (const check of def.checks ?? []) {
    const format = check?._zod?.def?.format;
    if (format && INT_FORMATS.has(format)) return true;
  }
  return false;
}

/**
 * Whether an object field may be absent. Zod marks optional, defaulted and prefaulted fields on
 * `_zod.optin`; a field without it is required (in Zod 4.6 even `z.unknown()` fields are).
 */
export function isOptionalIn(schema: Schema): boolean {
  return schema._zod.optin !== undefined;
}

/** Wrapper kinds that accept the same structure as their inner schema (plus `undefined`/`null`). */
const PASS_THROUGH = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional']);

/** Upper bound on wrapper hops, so a degenerate `z.lazy(() => self)` cannot loop forever. */
const MAX_UNWRAP = 256;

/**
 * Strips wrappers that do not change which structure is expected: optional, nullable, default,
 * prefault, readonly, nonoptional, lazy (followed) and pipe (its input side, which is what the
 * sender must produce). Stops at anything else, including `catch` and `transform`, which accept
 * any input and so end the repair.
 */
export function unwrap(schema: Schema): Schema | undefined {
  let current: Schema | undefined = schema;
  for (let hops = 0; current && hops < MAX_UNWRAP; hops++) {
    const def = defOf(current);
    if (PASS_THROUGH.has(def.type)) current = def.innerType;
    else if (def.type === 'lazy') current = lazyTarget(current);
    else if (def.type === 'pipe') current = def.in;
    else return current;
    if (current !== undefined && !isSchema(current)) return undefined;
  }
  return undefined;
}
