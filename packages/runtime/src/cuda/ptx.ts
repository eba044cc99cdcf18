/**
 * What the CUDA back end reads from a PTX image before handing it to the driver: the PTX version
 * and target, each kernel (`.entry`) with its parameters (size and alignment, which is how the
 * back end checks and packs a submission's arguments) and its launch directives (`.reqntid`,
 * `.maxntid`), and the functions the image defines and declares `.extern`.
 */

/** One kernel parameter as PTX declares it. */
export interface PtxParam {
  readonly name: string;
  /** The element type, e.g. `u64`, `f32`, `b8`. */
  readonly type: string;
  /** Bytes (element size × array length). */
  readonly size: number;
  readonly align: number;
  /** `.ptr` (a pointer to a state space, e.g. `.global`). */
  readonly pointer: boolean;
  /** Element count of an array parameter (`.b8 x[24]`, a struct passed by value). */
  readonly arrayLength?: number;
}

export interface PtxEntry {
  readonly name: string;
  readonly params: readonly PtxParam[];
  /** `.reqntid x, y, z` (missing sizes are 1). */
  readonly reqntid?: readonly [number, number, number];
  /** `.maxntid x, y, z`. */
  readonly maxntid?: readonly [number, number, number];
}

export interface PtxModuleInfo {
  /** `.version`, e.g. `7.8`. */
  readonly version: string | undefined;
  /** `.target` items, e.g. `['sm_90']`. */
  readonly target: readonly string[];
  readonly addressSize: number | undefined;
  readonly entries: readonly PtxEntry[];
  /** Functions with a body (`.func` and `.entry`). */
  readonly defined: readonly string[];
  /** `.extern .func` declarations. */
  readonly externs: readonly string[];
}

/** Why a PTX text could not be read. */
export class PtxError extends Error {
  override readonly name = 'PtxError';
}

const TYPE_BYTES: Readonly<Record<string, number>> = {
  b8: 1, u8: 1, s8: 1, pred: 1,
  b16: 2, u16: 2, s16: 2, f16: 2, bf16: 2,
  b32: 4, u32: 4, s32: 4, f32: 4, f16x2: 4, bf16x2: 4,
  b64: 8, u64: 8, s64: 8, f64: 8,
  b128: 16,
};

/** PTX text without `//` and `/* *\/` comments (string literals do not occur where this matters). */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, '');
}

function parseParam(text: string, entry: string): PtxParam {
  const tokens = text.trim().split(/\s+/);
  if (tokens[0] !== '.param') throw new PtxError(`kernel ${entry}: parameter '${text.trim()}' is not a .param`);
  let type: string | undefined;
  let align: number | undefined;
  let pointer = false;
  let name: string | undefined;
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === '.align') {
      align = Number(tokens[++i]);
    } else if (token === '.ptr') {
      pointer = true;
    } else if (token.startsWith('.')) {
      const bare = token.slice(1);
      if (TYPE_BYTES[bare] !== undefined) type = bare;
      // state spaces after .ptr (.global, .const, .local, .shared) carry no size
    } else {
      name = token;
    }
  }
  if (type === undefined || name === undefined) throw new PtxError(`kernel ${entry}: cannot read parameter '${text.trim()}'`);
  const array = /^(.*)\[(\d+)\]$/.exec(name);
  const element = TYPE_BYTES[type]!;
  const arrayLength = array === null ? undefined : Number(array[2]);
  return {
    name: array === null ? name : array[1]!,
    type,
    size: element * (arrayLength ?? 1),
    align: align ?? element,
    pointer,
    ...(arrayLength === undefined ? {} : { arrayLength }),
  };
}

function sizes(text: string): [number, number, number] {
  const values = text.split(',').map((s) => Number(s.trim()));
  return [values[0] ?? 1, values[1] ?? 1, values[2] ?? 1];
}

/** Reads what the back end needs from PTX text (see the module comment). */
export function readPtx(ptx: string): PtxModuleInfo {
  const text = stripComments(ptx);
  const version = /(?:^|\s)\.version\s+(\d+\.\d+)/.exec(text)?.[1];
  const targetLine = /(?:^|\s)\.target\s+([^\n;]+)/.exec(text)?.[1];
  const addressSize = /(?:^|\s)\.address_size\s+(\d+)/.exec(text)?.[1];
  const entries: PtxEntry[] = [];
  const defined: string[] = [];
  const externs: string[] = [];
  // A function header: directives, .entry/.func, an optional return list, the name, the parameter
  // list, then performance directives up to '{' (a definition) or ';' (a declaration).
  const header = /((?:\.\w+\s+)*)\.(entry|func)\s+(?:\(([^)]*)\)\s*)?([A-Za-z_$%][\w$]*)\s*(?:\(([^)]*)\))?([^{;]*)([{;])/g;
  for (const match of text.matchAll(header)) {
    const [, prefix = '', kind, , name = '', params = '', directives = '', end] = match;
    const isExtern = /\.extern\b/.test(prefix);
    if (end === ';') {
      if (isExtern) externs.push(name);
      continue;
    }
    defined.push(name);
    if (kind !== 'entry') continue;
    const list = params.trim() === '' ? [] : params.split(',').map((param) => parseParam(param, name));
    const reqntid = /\.reqntid\s+([\d\s,]+)/.exec(directives)?.[1];
    const maxntid = /\.maxntid\s+([\d\s,]+)/.exec(directives)?.[1];
    entries.push({
      name,
      params: list,
      ...(reqntid === undefined ? {} : { reqntid: sizes(reqntid) }),
      ...(maxntid === undefined ? {} : { maxntid: sizes(maxntid) }),
    });
  }
  return {
    version,
    target: targetLine === undefined ? [] : targetLine.split(',').map((s) => s.trim()).filter((s) => s !== ''),
    addressSize: addressSize === undefined ? undefined : Number(addressSize),
    entries,
    defined,
    externs,
  };
}

/** Whether bytes look like PTX text (a `.version` directive near the start, after comments). */
export function isPtxText(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  return /(?:^|\n)\s*\.version\s+\d+\.\d+/.test(stripComments(head));
}
