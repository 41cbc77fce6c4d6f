/**
 * The repair walk: the arguments and the schema side by side, with an explicit stack.
 *
 * Iterative on purpose: sent arguments may be nested far deeper than the JS stack allows, and a
 * recursive schema (`z.lazy`) follows them all the way down. Cost is linear: each value the schema
 * describes is visited once, and each container is copied at most once, only when a child of it
 * was repaired (copy-on-write). It is also bounded: at most `maxNodes` sent values are visited
 * (then the walk gives up, returning the value as sent) and at most `maxNodes` values parsed. Containers produced by repair's own `JSON.parse` belong to repair
 * and are updated in place. The caller's object is never written to.
 */

import { setOwn } from '../json-schema/own-properties.js';
import { formatPathSegment } from '../messages/path.js';
import { type Accepts, acceptsSomeString } from '../zod/accepted-kinds.js';
import { ambiguityMessage, structuredMemberAccepts } from './ambiguity.js';
import { childSel, uniformChildren } from './child-selection.js';
import { type ContainerKind, containerKind } from './container-kind.js';
import { firstSignificant, parseJsonText } from './json-text.js';
import type { ResolvedRepairOptions } from './limits.js';
import { structural } from './narrowing.js';
import { nullMeansAbsent, undeclaredKey } from './null-as-absent.js';
import { repairScalar } from './scalars.js';
import { ANY, acceptsSel, type Sel } from './selection.js';
import type { Repair, RepairIssue } from './types.js';

/** A container being walked. */
class Frame {
  /** Copy of `src` made on the first repaired child (or `src` itself when repair owns it). */
  out: any = null;
  /** Own keys of an object container, read once. */
  keys: string[] | null = null;
  i = 0;
  /** Child selection shared by every key when the container is an array or record. */
  uniform: Sel | null | undefined = undefined;
  /** Whether `sel` gives every child the same schema; decided once per container. */
  readonly sameForAll: boolean;
  constructor(
    readonly parent: Frame | null,
    readonly key: string | number,
    readonly src: any,
    readonly sel: Sel,
    /** Created by repair's JSON.parse: safe to update in place. */
    readonly owned: boolean,
    /** Nesting level of this container; the arguments' root container is 1. */
    readonly level: number,
  ) {
    if (!Array.isArray(src)) this.keys = Object.keys(src);
    this.sameForAll = uniformChildren(sel);
  }
}

/** Thrown to stop the walk at once when text holds more values than the budget: the call is refused. */
class Abort {
  constructor(readonly issue: RepairIssue) {}
}

/**
 * Thrown to stop the walk at once when the sent values (not parsed out of text) outnumber the
 * budget. Their size is the sender's, already capped by the transport, and nothing is known to need
 * repair: repair gives up and the value goes to Zod as sent, without an issue of its own.
 */
class GiveUp {}

export interface WalkOutcome {
  value: unknown;
  repairs: Repair[];
  issues: RepairIssue[];
  /** Values visited, sent and parsed out of text: the walk's work. */
  visited: number;
}

export function walk(root: unknown, schema: Sel, opts: ResolvedRepairOptions): WalkOutcome {
  const w = new Walker(opts);
  try {
    const value = w.run(root, schema);
    return { value, repairs: w.repairs, issues: w.issues, visited: w.steps };
  } catch (e) {
    // A limit hit mid-walk leaves nothing half-repaired: the original value goes back, refused.
    if (e instanceof Abort) return { value: root, repairs: [], issues: [e.issue], visited: w.steps };
    // Issues found before (a cycle, a list written as text) stand whatever repair would have done.
    if (e instanceof GiveUp) return { value: root, repairs: [], issues: w.issues, visited: w.steps };
    throw e;
  }
}

class Walker {
  readonly repairs: Repair[] = [];
  readonly issues: RepairIssue[] = [];
  /** Sent values visited; over `maxNodes` the walk gives up (GiveUp). */
  private visited = 0;
  /** Every value visited, sent or parsed. */
  steps = 0;
  /** Values parsed out of text; over `maxNodes` the call is refused (Abort). */
  private parsed = 0;
  /** Sent containers on the current path: meeting one again means the value is cyclic. */
  private readonly ancestors = new Set<object>();

  constructor(private readonly opts: ResolvedRepairOptions) {}

  run(root: unknown, schema: Sel): unknown {
    const first = this.visit(null, '', root, schema);
    if (!(first instanceof Frame)) return first;
    const stack: Frame[] = [first];
    let result: unknown = root;
    while (stack.length > 0) {
      const f = stack[stack.length - 1]!;
      const key = this.nextKey(f);
      if (key !== undefined) {
        const current = f.src[key];
        if (current === null && this.opts.nullAsAbsent && f.keys !== null && undeclaredKey(f.sel, key)) {
          removeChild(f, key);
          this.repairs.push({ path: pathText(f, key), from: 'null-as-absent' });
          continue;
        }
        const sel = this.childOf(f, key);
        if (sel === null) continue;
        if (current === null && this.opts.nullAsAbsent && f.keys !== null && nullMeansAbsent(f.sel, key, sel)) {
          removeChild(f, key);
          this.repairs.push({ path: pathText(f, key), from: 'null-as-absent' });
          continue;
        }
        const r = this.visit(f, key, current, sel);
        if (r instanceof Frame) stack.push(r);
        else if (r !== current) setChild(f, key, r);
        continue;
      }
      stack.pop();
      if (!f.owned) this.ancestors.delete(f.src);
      const final = f.out ?? f.src;
      if (f.parent === null) result = final;
      else if (final !== f.parent.src[f.key]) setChild(f.parent, f.key, final);
    }
    return result;
  }

  private nextKey(f: Frame): string | number | undefined {
    if (f.keys === null) return f.i < f.src.length ? f.i++ : undefined;
    return f.i < f.keys.length ? f.keys[f.i++] : undefined;
  }

  private childOf(f: Frame, key: string | number): Sel | null {
    if (f.uniform !== undefined) return f.uniform;
    const sel = childSel(f.sel, key);
    if (f.sameForAll) f.uniform = sel;
    return sel;
  }

  /** One value: returns its replacement, or a Frame when it is a container to walk into. */
  private visit(parent: Frame | null, key: string | number, value: unknown, sel: Sel): unknown {
    // A value parsed out of text was counted when parsed; a sent one is counted as it is visited.
    this.steps++;
    if (!(parent?.owned ?? false) && ++this.visited > this.opts.maxNodes) throw new GiveUp();
    if (typeof value === 'string') return this.repairString(parent, key, value, sel);
    const kind = containerKind(value);
    if (!kind) return value;
    return this.enter(parent, key, value, sel, kind, parent?.owned ?? false);
  }

  private enter(
    parent: Frame | null,
    key: string | number,
    value: unknown,
    sel: Sel,
    kind: ContainerKind,
    owned: boolean,
  ): unknown {
    const sw = this.opts;
    const st = structural(sel, value, kind, sw);
    // Nothing (or something accepting anything) describes this container: nothing below changes.
    if (st === null || st === ANY) return value;
    if (!owned) {
      // Only a container the schema keeps describing can loop the walk; one under z.unknown() is never entered.
      if (this.ancestors.has(value as object)) {
        this.issues.push({
          path: pathOf(parent, key),
          message: 'the value refers to itself (cyclic); it cannot be checked',
        });
        return value;
      }
      this.ancestors.add(value as object);
    }
    return new Frame(parent, key, value, st, owned, (parent?.level ?? 0) + 1);
  }

  private repairString(parent: Frame | null, key: string | number, s: string, sel: Sel): unknown {
    const a = acceptsSel(sel);
    if (a.any) return s;
    if (acceptsSomeString(a)) {
      if (this.opts.json && (a.array || a.object)) this.checkAmbiguous(parent, key, s, sel, a);
      return s;
    }
    if (this.opts.json && (a.array || a.object)) {
      const c = firstSignificant(s);
      const kind: ContainerKind | undefined =
        c === '[' && a.array ? 'array' : c === '{' && a.object ? 'object' : undefined;
      if (kind) {
        const parsed = this.parse(parent, key, s, true);
        if (parsed !== NOT_PARSED && containerKind(parsed) === kind) {
          this.repairs.push({ path: pathText(parent, key), from: 'json-string' });
          // Keep walking: the parsed value may itself hold JSON text (a value encoded twice) or scalar strings.
          return this.enter(parent, key, parsed, sel, kind, true);
        }
        return s;
      }
    }
    if (this.opts.scalars) {
      const r = repairScalar(a, s);
      if (r) {
        this.repairs.push({ path: pathText(parent, key), from: r.from });
        return r.value;
      }
    }
    return s;
  }

  /** A string kept because a string is valid here; refuse it if it is really the list/object the union also takes. */
  private checkAmbiguous(parent: Frame | null, key: string | number, s: string, sel: Sel, a: Accepts): void {
    const c = firstSignificant(s);
    const kind: ContainerKind | undefined =
      c === '[' && a.array ? 'array' : c === '{' && a.object ? 'object' : undefined;
    if (!kind) return;
    // Limits exceeded here are not refusals: the string itself is a valid value.
    const parsed = this.parse(parent, key, s, false);
    if (parsed === NOT_PARSED || containerKind(parsed) !== kind) return;
    if (structuredMemberAccepts(sel, parsed, this.opts)) {
      this.issues.push({ path: pathOf(parent, key), message: ambiguityMessage(kind) });
    }
  }

  /** Parses JSON text within the limits; over a limit it reports an issue when `report` is set. */
  private parse(parent: Frame | null, key: string | number, s: string, report: boolean): unknown {
    const level = parent?.level ?? 0;
    const res = parseJsonText(s, {
      maxBytes: this.opts.maxStringBytes,
      maxNesting: this.opts.maxDepth - level,
      maxNodes: this.opts.maxNodes - this.parsed,
    });
    if (res.ok) {
      this.parsed += res.nodes;
      return res.value;
    }
    if (!report || res.reason === 'syntax') return NOT_PARSED; // not JSON: left for Zod to reject by path
    const path = pathOf(parent, key);
    if (res.reason === 'bytes') {
      this.issues.push({
        path,
        message: `the JSON text is ${res.bytes} bytes, over the ${this.opts.maxStringBytes}-byte repair limit; send the value itself, not a string holding it`,
      });
    } else if (res.reason === 'nesting') {
      this.issues.push({
        path,
        message: `the JSON text nests deeper than ${this.opts.maxDepth} levels (counted from the arguments' root), over the repair limit`,
      });
    } else {
      throw new Abort({
        path,
        message: `the JSON text in the arguments holds more than ${this.opts.maxNodes} values, over the repair limit; send smaller arguments`,
      });
    }
    return NOT_PARSED;
  }
}

const NOT_PARSED: unique symbol = Symbol('not-parsed');

/** Writes a repaired child, copying the container first unless repair owns it. */
function setChild(f: Frame, key: string | number, value: unknown): void {
  if (f.out === null) f.out = f.owned ? f.src : Array.isArray(f.src) ? f.src.slice() : { ...f.src };
  // A plain assignment to "__proto__" would set the prototype instead of a key.
  setOwn(f.out, key, value);
}

/** Leaves a key out, copying the container first unless repair owns it. */
function removeChild(f: Frame, key: string | number): void {
  if (f.out === null) f.out = f.owned ? f.src : { ...f.src };
  delete f.out[key];
}

/** The displayed path of child `key` of `parent` (`items[3].meta`), built straight from the frame chain. */
function pathText(parent: Frame | null, key: string | number): string {
  if (parent === null) return '';
  let out = formatPathSegment(key, parent.parent === null);
  for (let f: Frame | null = parent; f !== null && f.parent !== null; f = f.parent) {
    out = formatPathSegment(f.key, f.parent.parent === null) + out;
  }
  return out;
}

/** The path of child `key` of `parent`, built from the frame chain only when a message needs it. */
function pathOf(parent: Frame | null, key: string | number): Array<string | number> {
  if (parent === null) return [];
  const path: Array<string | number> = [key];
  for (let f: Frame | null = parent; f !== null && f.parent !== null; f = f.parent) path.push(f.key);
  return path.reverse();
}
