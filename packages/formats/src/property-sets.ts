import { decodeLsbBase64, encodeLsbBase64 } from './base64.js';
import { Base64DecodeError, FormatError, type SourceLocation } from './errors.js';
import { DEFAULT_FILE_NAME, splitLines, type ReadOptions, type TextInput } from './lines.js';
import {
  parseRawByteArray,
  PropertyType,
  rawByteArray,
  recordPropertyOrigin,
  type PropertyValue,
} from './property-value.js';

/** One property set: property name → value, in insertion order. */
export type PropertySet = ReadonlyMap<string, PropertyValue>;

/**
 * Sets held by more than one registry since a `clone()`: a registry copies such a set before it
 * changes it, so clones cost one map per set they change instead of one per set.
 */
const sharedSets = new WeakSet<Map<string, PropertyValue>>();

// Assigned in PropertySetRegistry's static block; lets the reader bypass the name checks.
let storeUnchecked: (
  registry: PropertySetRegistry,
  setName: string,
  propertyName?: string,
  value?: PropertyValue,
) => void;

/**
 * Property sets in insertion order, each an insertion-ordered map, like upstream's
 * `PropertySetRegistry` (MapVector of MapVector). Names are checked on insertion so that whatever
 * the registry holds can be written and read back unchanged.
 */
export class PropertySetRegistry implements Iterable<[string, PropertySet]> {
  readonly #sets = new Map<string, Map<string, PropertyValue>>();

  static {
    // The reader's names are valid by construction; skipping the checks keeps reading fast.
    storeUnchecked = (registry, setName, propertyName, value) => {
      let set = registry.#sets.get(setName);
      if (set === undefined) registry.#sets.set(setName, (set = new Map()));
      if (propertyName !== undefined) set.set(propertyName, value!);
    };
  }

  /** Number of sets. */
  get size(): number {
    return this.#sets.size;
  }

  /** Set names in file order. */
  setNames(): string[] {
    return [...this.#sets.keys()];
  }

  [Symbol.iterator](): Iterator<[string, PropertySet]> {
    return this.#sets.entries();
  }

  hasSet(setName: string): boolean {
    return this.#sets.has(setName);
  }

  getSet(setName: string): PropertySet | undefined {
    return this.#sets.get(setName);
  }

  get(setName: string, propertyName: string): PropertyValue | undefined {
    return this.#sets.get(setName)?.get(propertyName);
  }

  /** Creates the set if missing (an empty set is still written as its header line). */
  ensureSet(setName: string): void {
    this.#mutableSet(setName);
  }

  /**
   * Adds one property, creating the set at the end if needed. Like upstream `add`, an existing
   * property keeps its first value; returns whether the value was inserted.
   */
  add(setName: string, propertyName: string, value: PropertyValue): boolean {
    const set = this.#mutableSet(setName);
    if (set.has(propertyName)) return false;
    checkPropertyName(propertyName);
    this.#own(setName, set).set(propertyName, value);
    return true;
  }

  /** Inserts or overwrites a property; an overwritten property keeps its position. */
  replace(setName: string, propertyName: string, value: PropertyValue): void {
    const set = this.#mutableSet(setName);
    checkPropertyName(propertyName);
    this.#own(setName, set).set(propertyName, value);
  }

  /**
   * Adds a whole new set (upstream's bulk `add`, which asserts the set is new). Entries keep the
   * iteration order given; a repeated name overwrites in place, as `insert_or_assign` does.
   */
  addSet(setName: string, properties: Iterable<readonly [string, PropertyValue]>): void {
    if (this.#sets.has(setName)) throw new FormatError(`property set [${setName}] already exists`);
    const entries = [...properties];
    for (const [name] of entries) checkPropertyName(name);
    const set = this.#mutableSet(setName);
    for (const [name, value] of entries) set.set(name, value);
  }

  /**
   * An independent copy: the same sets and properties in the same order, without checking the
   * names again (this registry checked them). Values are shared (they are not changed in place).
   */
  clone(): PropertySetRegistry {
    const copy = new PropertySetRegistry();
    for (const [name, set] of this.#sets) {
      sharedSets.add(set);
      copy.#sets.set(name, set);
    }
    return copy;
  }

  /** Removes one property; returns whether it was there. The set stays, even when empty. */
  remove(setName: string, propertyName: string): boolean {
    const set = this.#sets.get(setName);
    if (set === undefined || !set.has(propertyName)) return false;
    return this.#own(setName, set).delete(propertyName);
  }

  /** `set` (this registry's set `setName`), copied first if another registry shares it. */
  #own(setName: string, set: Map<string, PropertyValue>): Map<string, PropertyValue> {
    if (!sharedSets.has(set)) return set;
    const copy = new Map(set);
    this.#sets.set(setName, copy);
    return copy;
  }

  #mutableSet(setName: string): Map<string, PropertyValue> {
    let set = this.#sets.get(setName);
    if (set === undefined) {
      checkSetName(setName);
      set = new Map();
      this.#sets.set(setName, set);
    }
    return set;
  }
}

function checkSetName(name: string): void {
  const problem = textProblem(name);
  if (problem !== undefined) throw new FormatError(`invalid property set name ${JSON.stringify(name)}: ${problem}`);
}

function checkPropertyName(name: string): void {
  let problem = textProblem(name);
  if (name.length === 0) problem = 'it is empty';
  else if (name.includes('=')) problem = "it contains '='";
  else if (name.startsWith('[')) problem = "it starts with '[' and would read back as a set header";
  if (problem !== undefined) throw new FormatError(`invalid property name ${JSON.stringify(name)}: ${problem}`);
}

function textProblem(text: string): string | undefined {
  // Names are almost always printable ASCII, which has none of the problems: one scan instead
  // of two searches and a Unicode regex (a compile checks tens of names per image).
  if (isPrintableAscii(text)) return undefined;
  if (text.includes('\n')) return 'it contains a newline';
  if (text.includes('\0')) return 'it contains NUL';
  if (/\p{Cs}/u.test(text)) return 'it contains an unpaired surrogate';
  return undefined;
}

function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/** `<type>|<value>` as written after `name=`: `1|16`, `2|gAAAAAAAAAQAAAAA`. */
export function formatPropertyValue(value: PropertyValue): string {
  if (value.type === PropertyType.UINT32) return `1|${value.value}`;
  return `2|${encodeLsbBase64(rawByteArray(value))}`;
}

/** Writes a registry byte-exactly as upstream: `[set]\n` then `name=type|value\n` per property. */
export function writePropertySetRegistry(registry: PropertySetRegistry): string {
  let out = '';
  for (const [setName, set] of registry) {
    out += `[${setName}]\n`;
    for (const [name, value] of set) out += `${name}=${formatPropertyValue(value)}\n`;
  }
  return out;
}

const DIGITS = /^[0-9]+$/;

/**
 * Reads a `.prop` file. Follows upstream `PropertySetRegistry::read`: a header reopens an existing
 * set; a repeated property takes the later value at the earlier position; blank lines are skipped.
 * A zero-byte input is an empty registry. Errors are `FormatError`s located at `file:line:col`.
 */
export function readPropertySetRegistry(input: TextInput, options: ReadOptions = {}): PropertySetRegistry {
  const file = options.fileName ?? DEFAULT_FILE_NAME;
  const registry = new PropertySetRegistry();
  if (input.length === 0) return registry;
  const lines = splitLines(input, file);
  let currentSet: string | undefined;
  for (const { text, line } of lines) {
    const at = (column: number): SourceLocation => ({ file, line, column });
    if (text.startsWith('[')) {
      // The name runs to the last ']' (so it may contain ']'); anything after it is ignored, as upstream.
      const end = text.lastIndexOf(']');
      if (end < 0) throw new FormatError(`invalid line: ${text}: set header has no ']'`, at(text.length + 1));
      currentSet = text.slice(1, end);
      storeUnchecked(registry, currentSet);
      continue;
    }
    if (currentSet === undefined) throw new FormatError('property category missing', at(1));
    const equals = text.indexOf('=');
    if (equals <= 0 || equals === text.length - 1) {
      const column = equals < 0 ? text.length + 1 : equals <= 0 ? 1 : equals + 2;
      throw new FormatError(`invalid property line: ${text}: expected <name>=<type>|<value>`, at(column));
    }
    const name = text.slice(0, equals);
    const typeStart = equals + 1;
    const bar = text.indexOf('|', typeStart);
    if (bar === typeStart || bar < 0 || bar === text.length - 1) {
      const column = bar < 0 ? text.length + 1 : bar === typeStart ? typeStart + 1 : bar + 2;
      throw new FormatError(`invalid property value: ${text.slice(typeStart)}: expected <type>|<value>`, at(column));
    }
    const typeText = text.slice(typeStart, bar);
    if (!DIGITS.test(typeText)) throw new FormatError(`invalid property type: ${typeText}`, at(typeStart + 1));
    const typeCode = Number(typeText);
    const valueStart = bar + 1;
    const valueText = text.slice(valueStart);
    let value: PropertyValue;
    if (typeCode === PropertyType.UINT32) {
      if (!DIGITS.test(valueText)) throw new FormatError(`invalid property value: ${valueText}`, at(valueStart + 1));
      const number = Number(valueText);
      if (number > 0xffff_ffff) {
        throw new FormatError(`invalid property value: ${valueText} does not fit in UINT32`, at(valueStart + 1));
      }
      value = { type: PropertyType.UINT32, value: number };
    } else if (typeCode === PropertyType.BYTE_ARRAY) {
      value = parseByteArray(valueText, (offset) => at(valueStart + 1 + offset));
    } else if (typeCode === 0) {
      throw new FormatError('unsupported property type: 0 (NONE)', at(typeStart + 1));
    } else {
      throw new FormatError(`bad property type ${typeText}`, at(typeStart + 1));
    }
    recordPropertyOrigin(value, { location: at(1), setName: currentSet, propertyName: name });
    storeUnchecked(registry, currentSet, name, value);
  }
  if (currentSet === undefined) throw new FormatError('invalid property set registry: no set header', { file, line: 1, column: 1 });
  return registry;
}

function parseByteArray(text: string, at: (offset: number) => SourceLocation): PropertyValue {
  let raw: Uint8Array;
  try {
    raw = decodeLsbBase64(text);
  } catch (error) {
    if (error instanceof Base64DecodeError) throw new FormatError(`invalid property value: ${error.reason}`, at(error.index));
    throw error;
  }
  try {
    return parseRawByteArray(raw, false);
  } catch (error) {
    if (error instanceof FormatError) throw new FormatError(`invalid property value: ${error.reason}`, at(0));
    throw error;
  }
}
