/**
 * Explanation facts: for every function of a device program, the aspects it uses *itself* (which
 * instruction, which type, where in the source) and whom it calls. `syclkit compile` stores them
 * in each device image (property set `syclkit/explain`), so `syclkit explain app.fatbin` can show
 * the call chain from a kernel to the instruction that made it need an aspect without the IR.
 *
 * Which aspects a function uses itself, and why, is `@syclkit/aspect-propagation`'s
 * `directAspectUses` — the rules of the `sycl-propagate-aspects-usage` pass, not a copy of them —
 * taken, with the calls, from one `walkModule` the pass then reuses (see computeUnitFacts).
 * This module only adds what explaining needs: instruction and signature text, source locations,
 * counts, and the calls (linker-resolved across translation units). A test checks that closing
 * these facts over the call edges gives exactly the `!sycl_used_aspects` the pass writes.
 */
import { inflateRawSync } from 'node:zlib';
import { formatName, formatType, valueTexts, type DINode, type Instruction, type IRFunction, type Module, type ValueInFunction } from '@syclkit/ir';
import { moduleWalkAnalysis, walkModule, type AspectUse as DirectUse, type ModuleWalk } from '@syclkit/aspect-propagation';
import type { AnalysisGetter } from '@syclkit/pass-manager';
import { byteArrayValue, type PropertyValue } from '@syclkit/formats';
import { builtinAspectTable } from '@syclkit/device-config';
import type { ImageFactsSource } from '@syclkit/passes';
import { debugNodeOf, fileOf, isDINode, isKernel, readAspectTable } from '@syclkit/sycl-conventions';

/** Property set (and property) the facts travel in, inside each device image. */
export const EXPLAIN_SET = 'syclkit/explain';
/** The facts of an image, JSON (see {@link encodeFacts}). */
export const EXPLAIN_PROPERTY = 'facts-json';
/** The same, raw-deflated: what binaries made before 2026-11-27 hold (still read). */
export const EXPLAIN_DEFLATED_PROPERTY = 'facts';
export const FACTS_VERSION = 1;

/** A source position from `!dbg`. */
export interface Loc {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
}

/** Why a function needs an aspect by itself. */
export type UseKind = 'instruction' | 'signature' | 'instruction-metadata' | 'function-metadata' | 'declared';

export interface AspectUse {
  readonly aspect: number;
  readonly kind: UseKind;
  /** The instruction as `opt -S` prints it (metadata attachments left out), or the signature. */
  readonly text?: string;
  /** The type that carries the aspect (e.g. `double`, `%"class.sycl::_V1::detail::half_impl::half"`). */
  readonly type?: string;
  readonly location?: Loc;
  /** How many uses of the aspect the function has (instructions, plus the signature or metadata): this one is the first. */
  readonly count: number;
}

export interface CallFact {
  readonly callee: string;
  readonly location?: Loc;
}

export interface ConditionalCallFact {
  readonly action: string;
  /** The Condition Expression's integers (undefined when not constant). */
  readonly condition?: readonly number[];
  readonly location?: Loc;
}

export interface FunctionFacts {
  readonly name: string;
  /** Index into {@link ProgramFacts.units}: the translation unit the function comes from. */
  readonly unit: number;
  readonly kernel: boolean;
  readonly definition: boolean;
  /** Internal or private linkage: only calls from its own translation unit reach it. */
  readonly local: boolean;
  readonly location?: Loc;
  /** First use of each aspect, in the order found. */
  readonly uses: readonly AspectUse[];
  /** First direct call of each callee, in call order (intrinsics left out). */
  readonly calls: readonly CallFact[];
  readonly conditionalCalls: readonly ConditionalCallFact[];
}

/**
 * Facts of a whole program, gathered per translation unit before anything runs (the source-level
 * truth: types still have their names, function metadata is what the front end wrote). Calls
 * resolve like the linker resolves them: to a definition in the caller's unit, else to a
 * non-local definition of that name in any unit.
 */
export interface ProgramFacts {
  readonly version: number;
  /** Translation units (input files), in link order. */
  readonly units: readonly string[];
  /** `!sycl_aspects` pairs (name, value), for messages. */
  readonly aspects: readonly (readonly [string, number])[];
  readonly functions: readonly FunctionFacts[];
}

// --- locations -------------------------------------------------------------------------------

function locFrom(node: DINode | undefined): Loc | undefined {
  if (node === undefined) return undefined;
  const line = node.intField('line');
  const column = node.className === 'DILocation' ? node.intField('column') : undefined;
  const scope = node.className === 'DILocation' ? node.mdField('scope') : node;
  const file = isDINode(scope) ? fileOf(scope) : undefined;
  const loc: { file?: string; line?: number; column?: number } = {};
  if (file !== undefined) loc.file = file;
  if (line !== undefined && line !== 0) loc.line = line;
  if (column !== undefined && column !== 0) loc.column = column;
  return Object.keys(loc).length === 0 ? undefined : loc;
}

/** `file:line:col`, as much of it as is known; undefined without a file or line. */
export function formatLoc(loc: Loc | undefined): string | undefined {
  if (loc === undefined || (loc.file === undefined && loc.line === undefined)) return undefined;
  return [loc.file ?? '<unknown>', loc.line, loc.column].filter((p) => p !== undefined).join(':');
}

// --- instruction text ------------------------------------------------------------------------------

/**
 * The printed text of the `wanted` instructions, as `opt -S` prints them, without their metadata
 * attachments. Only the functions holding them are printed (see `valueTexts`).
 */
function instructionTexts(module: Module, wanted: ReadonlySet<Instruction>): Map<Instruction, string> {
  const out = new Map<Instruction, string>();
  const values: ValueInFunction[] = [];
  for (const inst of wanted) {
    const fn = inst.parent?.parent;
    if (fn !== undefined) values.push({ value: inst, fn });
  }
  if (values.length === 0) return out;
  const texts = valueTexts(module, values, { attachments: false });
  values.forEach(({ value }, i) => out.set(value as Instruction, texts[i]!.trim()));
  return out;
}

function signatureText(fn: IRFunction): string {
  return `${formatType(fn.returnType)} ${formatName('@', fn.name)}(${fn.functionType.params.map((t) => formatType(t)).join(', ')})`;
}

// --- computing the facts ---------------------------------------------------------------------------

/**
 * Facts for the functions of one translation unit, as the front end wrote it (run this before
 * any pass: function-level `!sycl_used_aspects` then means `[[sycl_detail::uses_aspects]]`).
 * Functions that are defined, or declared with aspects of their own, in module order.
 */
export function computeUnitFacts(module: Module, unit: number, analyses?: AnalysisGetter): FunctionFacts[] {
  // One walk gives the uses and the calls; through `analyses` the aspect pass reuses it while the
  // module stays unchanged (see @syclkit/aspect-propagation's moduleWalkAnalysis).
  const walk = analyses === undefined ? walkModule(module) : analyses.getResult(moduleWalkAnalysis, module);
  const direct = walk.uses;
  // Only the first use of an aspect in a function is shown, so only those instructions are printed.
  const wanted = new Set<Instruction>();
  for (const { uses, declared } of direct) forEachShownUse(uses, declared, (use) => {
    if (use.kind === 'instruction' || use.kind === 'instruction-metadata') wanted.add(use.instruction);
  });
  const texts = instructionTexts(module, wanted);
  const functions: FunctionFacts[] = [];

  module.functions.forEach((fn, i) => {
    const { uses: found, declared } = direct[i]!;
    // Most functions use no aspect themselves: no location or text work for their (empty) uses.
    const hasUses = found.length > 0 || declared.length > 0;
    if (fn.isDeclaration && !hasUses) return;
    const fnLoc = locFrom(debugNodeOf(fn));
    const { calls, conditionalCalls } = callFacts(walk.facts, i, fnLoc);
    const name = fn.name;
    const kernel = isKernel(fn);
    const definition = !fn.isDeclaration;
    const local = fn.linkage === 'internal' || fn.linkage === 'private';
    const uses = hasUses ? shownUses(fn, found, declared, fnLoc, texts) : NONE;
    // Two literals (not a spread) keep one object shape per case; the key order is the JSON's.
    functions.push(
      fnLoc === undefined
        ? { name, unit, kernel, definition, local, uses, calls, conditionalCalls }
        : { name, unit, kernel, definition, local, location: fnLoc, uses, calls, conditionalCalls },
    );
  });
  return functions;
}

/** The uses a function's facts show (see {@link forEachShownUse}), each with its count, text and location. */
function shownUses(fn: IRFunction, found: readonly DirectUse[], declared: readonly number[], fnLoc: Loc | undefined, texts: ReadonlyMap<Instruction, string>): AspectUse[] {
  const fnAt = fnLoc === undefined ? {} : { location: fnLoc };
  const instAt = (inst: Instruction): { location?: Loc } => locationAt(inst, fnLoc);
  const instText = (inst: Instruction): { text?: string } => {
    const text = texts.get(inst);
    return text === undefined ? {} : { text };
  };
  const counts = new Map<number, number>();
  for (const aspect of declared) counts.set(aspect, (counts.get(aspect) ?? 0) + 1);
  for (const use of found) counts.set(use.aspect, (counts.get(use.aspect) ?? 0) + 1);
  const uses: AspectUse[] = [];
  forEachShownUse(found, declared, (use, aspect) => {
    const count = counts.get(aspect) ?? 1;
    switch (use.kind) {
      case 'declared':
        uses.push({ aspect, kind: 'declared', ...fnAt, count });
        break;
      case 'function-metadata':
        uses.push({ aspect, kind: 'function-metadata', ...fnAt, count });
        break;
      case 'signature':
        uses.push({ aspect, kind: 'signature', text: signatureText(fn), type: formatType(use.type), ...fnAt, count });
        break;
      case 'instruction':
        uses.push({ aspect, kind: 'instruction', ...instText(use.instruction), type: formatType(use.type), ...instAt(use.instruction), count });
        break;
      case 'instruction-metadata':
        uses.push({ aspect, kind: 'instruction-metadata', ...instText(use.instruction), ...instAt(use.instruction), count });
        break;
    }
  });
  // Kept to the end of the compile: a copy of its exact size.
  return uses.slice();
}

/**
 * The use an explanation shows for each aspect of a function: its first, where what the source
 * says ([[sycl::device_has]], then [[__sycl_detail__::__uses_aspects__]]) comes before what the
 * code does (the signature, then instructions, in the pass's order). In order of first use.
 */
function forEachShownUse(found: readonly DirectUse[], declared: readonly number[], visit: (use: DirectUse | { readonly kind: 'declared' }, aspect: number) => void): void {
  const shown = new Set<number>();
  const show = (aspect: number, use: DirectUse | { readonly kind: 'declared' }): void => {
    if (shown.has(aspect)) return;
    shown.add(aspect);
    visit(use, aspect);
  };
  for (const aspect of declared) show(aspect, DECLARED);
  for (const use of found) if (use.kind === 'function-metadata') show(use.aspect, use);
  for (const use of found) if (use.kind !== 'function-metadata') show(use.aspect, use);
}

const DECLARED = { kind: 'declared' } as const;

/** An instruction's `!dbg` position, else its function's, as an optional `location` field. */
function locationAt(inst: Instruction, fnLoc: Loc | undefined): { location?: Loc } {
  const loc = locationOf(inst, fnLoc);
  return loc === undefined ? {} : { location: loc };
}

/** An instruction's `!dbg` position, else its function's. */
function locationOf(inst: Instruction, fnLoc: Loc | undefined): Loc | undefined {
  // Most instructions have no attachment at all (code without -g).
  return (inst.attachments === null ? undefined : locFrom(debugNodeOf(inst))) ?? fnLoc;
}

/**
 * The calls of function `index` from the walk's facts: the first call of each callee in call
 * order, and every call of a conditional caller whose action is known; intrinsics left out.
 */
function callFacts(facts: ModuleWalk['facts'], index: number, fnLoc: Loc | undefined): { calls: readonly CallFact[]; conditionalCalls: readonly ConditionalCallFact[] } {
  const f = facts[index]!;
  if (f.callees.length === 0 && f.conditionalCalls.length === 0) return NO_CALLS;
  const found: CallFact[] = [];
  const callees = f.callees;
  for (let k = 0; k < callees.length; k++) {
    const fn = facts[callees[k]!]!.fn;
    if (fn.isIntrinsic) continue;
    const location = locationOf(f.calleeCalls[k]!, fnLoc);
    found.push(location === undefined ? { callee: fn.name } : { callee: fn.name, location });
  }
  // The facts live to the end of the compile: a list of its exact size (one grown by push keeps
  // room for 17), none without calls (intrinsics only).
  const calls: readonly CallFact[] = found.length === 0 ? NONE : found.slice();
  if (f.conditionalCalls.length === 0) return calls === NONE ? NO_CALLS : { calls, conditionalCalls: NONE };
  const conditionalCalls: ConditionalCallFact[] = [];
  for (const call of f.conditionalCalls) {
    if (call.action === undefined || facts[call.callee]!.fn.isIntrinsic) continue;
    conditionalCalls.push({ action: facts[call.action]!.fn.name, ...(call.constant ? { condition: call.condition } : {}), ...locationAt(call.instruction, fnLoc) });
  }
  return { calls, conditionalCalls };
}

/**
 * The empty list the facts of most functions have (no uses, no conditional calls): one shared,
 * frozen array instead of thousands that live as long as the facts.
 */
const NONE: readonly never[] = Object.freeze([]);
const NO_CALLS = Object.freeze({ calls: NONE, conditionalCalls: NONE });

/** Facts of a program from its translation units (each before any pass), in link order. */
export function computeProgramFacts(units: readonly { readonly file: string; readonly module: Module; readonly analyses?: AnalysisGetter }[]): ProgramFacts {
  const aspects: [string, number][] = [];
  const seen = new Set<string>();
  const functions: FunctionFacts[] = [];
  units.forEach(({ module, analyses }, i) => {
    for (const [name, value] of readAspectTable(module).pairs) {
      const key = `${name}=${value}`;
      if (!seen.has(key)) {
        seen.add(key);
        aspects.push([name, value]);
      }
    }
    functions.push(...computeUnitFacts(module, i, analyses));
  });
  return { version: FACTS_VERSION, units: units.map((u) => u.file), aspects, functions };
}

/** Resolves calls the way the linker does; see {@link ProgramFacts}. Built once per program. */
export class FactsIndex {
  /** Per translation unit, its functions by name. */
  readonly #byUnit: Map<string, FunctionFacts>[] = [];
  readonly #global = new Map<string, FunctionFacts>();
  readonly #position = new Map<FunctionFacts, number>();
  readonly #callees = new Map<FunctionFacts, readonly FunctionFacts[]>();
  /** See {@link aspectsAlwaysKept}. */
  readonly aspectsAlwaysKept: ReadonlySet<number> | undefined;
  constructor(readonly facts: ProgramFacts) {
    this.aspectsAlwaysKept = aspectsAlwaysKept(facts.aspects);
    facts.functions.forEach((f, i) => {
      this.#position.set(f, i);
      const unit = (this.#byUnit[f.unit] ??= new Map());
      const known = unit.get(f.name);
      if (known === undefined || (!known.definition && f.definition)) unit.set(f.name, f);
      if (!f.local) {
        const other = this.#global.get(f.name);
        if (other === undefined || (!other.definition && f.definition)) this.#global.set(f.name, f);
      }
    });
  }

  /** The function a call from `from` to `name` reaches. */
  resolve(name: string, from: FunctionFacts): FunctionFacts | undefined {
    const own = this.#byUnit[from.unit]?.get(name);
    if (own !== undefined && (own.definition || own.local)) return own;
    return this.#global.get(name) ?? own;
  }

  /** A kernel (or other non-local function) by name. */
  entry(name: string): FunctionFacts | undefined {
    return this.#global.get(name);
  }

  /** Where a function's facts are in the program's list (for program order). */
  position(f: FunctionFacts): number {
    return this.#position.get(f) ?? -1;
  }

  /** The functions `f`'s plain calls, then its conditional calls, reach (resolved once per function). */
  callees(f: FunctionFacts): readonly FunctionFacts[] {
    let list = this.#callees.get(f);
    if (list === undefined) {
      const reached: FunctionFacts[] = (list = []);
      for (const c of f.calls) {
        const g = this.resolve(c.callee, f);
        if (g !== undefined) reached.push(g);
      }
      for (const c of f.conditionalCalls) {
        const g = this.resolve(c.action, f);
        if (g !== undefined) reached.push(g);
      }
      this.#callees.set(f, list);
    }
    return list;
  }

  /** Names of the kernels the facts know, in order. */
  kernels(): string[] {
    return this.facts.functions.filter((f) => f.kernel && f.definition).map((f) => f.name);
  }
}

/**
 * The facts of the functions `entries` reach (plain and conditional calls): what one image needs.
 * With an index built once for the program, the cost is that of the slice, not of the program.
 */
export function restrictFacts(program: ProgramFacts | FactsIndex, entries: Iterable<string>): ProgramFacts {
  const index = program instanceof FactsIndex ? program : new FactsIndex(program);
  const facts = index.facts;
  const kept = reachedFunctions(index, entries);
  const units = unitsOf(kept);
  const renumber = new Map(units.map((u, i) => [u, i]));
  return {
    version: facts.version,
    units: units.map((u) => facts.units[u]!),
    aspects: aspectTableFor(facts.aspects, kept, index.aspectsAlwaysKept),
    functions: kept.map((f) => ({ ...f, unit: renumber.get(f.unit)! })),
  };
}

/** The functions `entries` reach over plain and conditional calls, in program order. */
function reachedFunctions(index: FactsIndex, entries: Iterable<string>): FunctionFacts[] {
  const keep = new Set<FunctionFacts>();
  const queue: FunctionFacts[] = [];
  for (const name of entries) {
    const f = index.entry(name);
    if (f !== undefined && !keep.has(f)) {
      keep.add(f);
      queue.push(f);
    }
  }
  for (let next = 0; next < queue.length; next++) {
    for (const g of index.callees(queue[next]!)) {
      if (!keep.has(g)) {
        keep.add(g);
        queue.push(g);
      }
    }
  }
  // Program order, as the whole list filtered would give.
  if (queue.length < 2) return queue;
  const positions = new Int32Array(queue.length);
  for (let i = 0; i < queue.length; i++) positions[i] = index.position(queue[i]!);
  positions.sort();
  const all = index.facts.functions;
  for (let i = 0; i < queue.length; i++) queue[i] = all[positions[i]!]!;
  return queue;
}

/** The translation units of `functions`, ascending (a slice numbers them 0, 1, ... in this order). */
function unitsOf(functions: readonly FunctionFacts[]): number[] {
  const units: number[] = [];
  for (const f of functions) if (!units.includes(f.unit)) units.push(f.unit);
  return units.sort((a, b) => a - b);
}

/**
 * `encodeFacts(restrictFacts(index, entries))` for image after image, byte for byte, without
 * building each slice: the JSON of an aspect table (for the aspects a slice uses) and of a unit
 * list is made once and reused by every image that has it (the same few aspects and files); each
 * function's JSON is made per image (see `json`).
 */
export class FactsSlicer {
  readonly #index: FactsIndex;
  /** Aspect tables' JSON by the aspects (beyond those always kept) their slices use. */
  readonly #tableJson = new Map<string, string>();
  /** Unit lists' JSON by their unit numbers. */
  readonly #unitJson = new Map<string, string>();
  readonly #prefix: string;

  constructor(index: FactsIndex) {
    this.#index = index;
    this.#prefix = `{"version":${JSON.stringify(index.facts.version)},"units":`;
  }

  /** The JSON text of the slice for `entries` (what {@link encodeFacts} encodes). */
  json(entries: Iterable<string>): string {
    const kept = reachedFunctions(this.#index, entries);
    const units = unitsOf(kept);
    let functions = '';
    for (const f of kept) {
      // Each function's JSON is made per image: caching it would keep every kernel's text alive
      // to the end of the compile for one use.
      const unit = units.length === 1 ? 0 : units.indexOf(f.unit);
      const text = JSON.stringify(unit === f.unit ? f : { ...f, unit });
      functions = functions === '' ? text : `${functions},${text}`;
    }
    return `${this.#prefix}${this.#unitsJson(units)},"aspects":${this.#aspectsJson(kept)},"functions":[${functions}]}`;
  }

  /** The JSON of a slice's unit list: the same few lists (often one file) for every image. */
  #unitsJson(units: readonly number[]): string {
    const key = units.length === 1 ? String(units[0]) : units.join(',');
    let json = this.#unitJson.get(key);
    if (json === undefined) {
      const facts = this.#index.facts;
      json = JSON.stringify(units.map((u) => facts.units[u]!));
      if (this.#unitJson.size < 256) this.#unitJson.set(key, json);
    }
    return json;
  }

  #aspectsJson(kept: readonly FunctionFacts[]): string {
    const always = this.#index.aspectsAlwaysKept;
    // The table a slice keeps depends only on which aspects its functions use.
    let used: number[] | undefined;
    if (always !== undefined) {
      for (const f of kept) {
        for (const u of f.uses) if (!always.has(u.aspect) && !(used ??= []).includes(u.aspect)) used.push(u.aspect);
      }
    }
    const key = used === undefined ? '' : used.sort((a, b) => a - b).join(',');
    let json = this.#tableJson.get(key);
    if (json === undefined) {
      json = JSON.stringify(aspectTableFor(this.#index.facts.aspects, kept, always));
      this.#tableJson.set(key, json);
    }
    return json;
  }
}

/**
 * The aspects whose entries every slice of the facts keeps: those the built-in table would answer
 * differently (a name it maps elsewhere, a value whose first name in the program's table is not
 * its canonical one). Undefined when the table repeats a name: then slices keep it whole.
 */
export function aspectsAlwaysKept(table: ProgramFacts['aspects']): ReadonlySet<number> | undefined {
  if (new Set(table.map(([name]) => name)).size !== table.length) return undefined;
  const kept = new Set<number>();
  const first = new Map<number, string>();
  for (const [name, value] of table) {
    if (!first.has(value)) first.set(value, name);
    if (builtinAspectTable.valueOf(name) !== value) kept.add(value);
  }
  for (const [value, name] of first) if (builtinAspectTable.nameOf(value) !== name) kept.add(value);
  return kept;
}

/**
 * The aspect table a slice of the facts carries. Lookups read it before the built-in table
 * (explain's aspectNameOf/aspectValueOf): entries the built-in table answers the same way are
 * left out unless the slice uses their aspect. Most of an image's facts would otherwise be the
 * table (about 60 pairs).
 */
export function aspectTableFor(table: ProgramFacts['aspects'], functions: readonly FunctionFacts[], always = aspectsAlwaysKept(table)): ProgramFacts['aspects'] {
  if (always === undefined) return table;
  const used = new Set<number>(always);
  for (const f of functions) for (const u of f.uses) used.add(u.aspect);
  return table.filter(([, value]) => used.has(value));
}

/** The explanation facts as the `explain-facts` pass adds them: indexed once, sliced per image. */
export function explainSource(facts: ProgramFacts): ImageFactsSource {
  const slicer = new FactsSlicer(new FactsIndex(facts));
  return { set: EXPLAIN_SET, property: EXPLAIN_PROPERTY, valueFor: (entries) => jsonValue(slicer.json(entries)) };
}

// --- in the binary -----------------------------------------------------------------------------------

/**
 * The property value: the JSON as UTF-8 bytes (deterministic for the same facts). An image's
 * slice is about 600 bytes; deflating each one cost more time (a zlib stream per image) than
 * the bytes it saved.
 */
export function encodeFacts(facts: ProgramFacts): PropertyValue {
  return jsonValue(JSON.stringify(facts));
}

const utf8 = new TextEncoder();

function jsonValue(json: string): PropertyValue {
  // One copy of the bytes, in an array of their own.
  return byteArrayValue(utf8.encode(json));
}

export class FactsFormatError extends Error {
  override readonly name = 'FactsFormatError';
}

/**
 * Reads a property value: `EXPLAIN_PROPERTY`'s JSON as {@link encodeFacts} writes it, or, with
 * `deflated`, `EXPLAIN_DEFLATED_PROPERTY`'s raw-deflated JSON of binaries made before.
 */
export function decodeFacts(value: PropertyValue, deflated = false): ProgramFacts {
  const property = deflated ? EXPLAIN_DEFLATED_PROPERTY : EXPLAIN_PROPERTY;
  if (value.type !== 2) throw new FactsFormatError(`'${property}' is not a byte array`);
  let parsed: unknown;
  try {
    parsed = JSON.parse((deflated ? inflateRawSync(value.payload) : Buffer.from(value.payload.buffer, value.payload.byteOffset, value.payload.byteLength)).toString('utf8'));
  } catch (error) {
    throw new FactsFormatError(`'${property}' does not hold ${deflated ? 'deflated ' : ''}JSON: ${(error as Error).message}`);
  }
  const facts = parsed as Partial<ProgramFacts>;
  if (typeof facts !== 'object' || facts === null || facts.version !== FACTS_VERSION || !Array.isArray(facts.functions) || !Array.isArray(facts.aspects)) {
    throw new FactsFormatError(`'${property}' has an unknown layout (expected version ${FACTS_VERSION})`);
  }
  return facts as ProgramFacts;
}


// --- explaining ---------------------------------------------------------------------------------------

/** One step of an explanation: a call from `caller` to `callee` at `location`. */
export interface ChainStep {
  readonly caller: string;
  readonly callee: string;
  readonly location?: Loc;
  /** Set when the call is a `device_if` conditional call of the action `callee`: its Condition Expression. */
  readonly condition?: readonly number[];
}

export interface Explanation {
  readonly kernel: string;
  readonly aspect: number;
  /** Calls from the kernel to the function with the use (empty: the kernel uses it itself). */
  readonly chain: readonly ChainStep[];
  /** The function holding the use, its translation unit, and the use. */
  readonly function: string;
  readonly unit: string;
  readonly use: AspectUse;
  /** The chain goes through a `device_if` conditional call: the kernel needs the aspect only where the condition holds. */
  readonly conditional: boolean;
}

/**
 * The shortest call chain from `kernel` to a function that uses `aspect` itself (breadth first,
 * calls in call order). Plain calls are tried first; only when they reach no use are `device_if`
 * conditional calls followed too. Undefined when the kernel reaches no use of the aspect.
 */
export function explainAspect(facts: ProgramFacts, kernel: string, aspect: number): Explanation | undefined {
  const index = new FactsIndex(facts);
  const start = index.entry(kernel);
  if (start === undefined) return undefined;
  const search = (allowConditional: boolean): Explanation | undefined => {
    const previous = new Map<FunctionFacts, { from: FunctionFacts; step: ChainStep } | null>([[start, null]]);
    const queue = [start];
    while (queue.length > 0) {
      const fn = queue.shift()!;
      const use = fn.uses.find((u) => u.aspect === aspect);
      if (use !== undefined) {
        const chain: ChainStep[] = [];
        for (let link = previous.get(fn); link != null; link = previous.get(link.from)) chain.unshift(link.step);
        return { kernel, aspect, chain, function: fn.name, unit: facts.units[fn.unit] ?? '', use, conditional: chain.some((s) => s.condition !== undefined) };
      }
      const edges: ChainStep[] = fn.calls.map((c) => ({ caller: fn.name, callee: c.callee, ...(c.location === undefined ? {} : { location: c.location }) }));
      if (allowConditional) {
        for (const c of fn.conditionalCalls) {
          edges.push({ caller: fn.name, callee: c.action, condition: c.condition ?? [], ...(c.location === undefined ? {} : { location: c.location }) });
        }
      }
      for (const step of edges) {
        const next = index.resolve(step.callee, fn);
        if (next === undefined || previous.has(next)) continue;
        previous.set(next, { from: fn, step });
        queue.push(next);
      }
    }
    return undefined;
  };
  return search(false) ?? search(true);
}

/** Every aspect `kernel` reaches, in the order found (with `conditional`, through device_if actions too). */
export function aspectsReached(facts: ProgramFacts, kernel: string, conditional = false): number[] {
  const index = new FactsIndex(facts);
  const start = index.entry(kernel);
  if (start === undefined) return [];
  const seen = new Set([start]);
  const queue = [start];
  const out: number[] = [];
  while (queue.length > 0) {
    const fn = queue.shift()!;
    for (const u of fn.uses) if (!out.includes(u.aspect)) out.push(u.aspect);
    const next = [...fn.calls.map((c) => c.callee), ...(conditional ? fn.conditionalCalls.map((c) => c.action) : [])];
    for (const name of next) {
      const g = index.resolve(name, fn);
      if (g === undefined || seen.has(g)) continue;
      seen.add(g);
      queue.push(g);
    }
  }
  return out;
}
