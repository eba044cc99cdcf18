/**
 * Tokenizer for LLVM textual IR, following LLLexer's rules. The source is a latin1 string (one
 * char per byte) so names and strings are byte sequences, exactly as LLVM sees them.
 */
import { IrSyntaxError } from '../errors.js';
import { NameTable } from '../model/nametable.js';

/** FNV-1a, as {@link NameTable.hashSpan} computes it. */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

export const enum Tok {
  Eof,
  Error,
  Equal, // =
  Comma,
  Star,
  LSquare,
  RSquare,
  LBrace,
  RBrace,
  Less,
  Greater,
  LParen,
  RParen,
  Exclaim, // ! (before digits, {, " ...)
  Bar,
  Colon,
  DotDotDot,
  /** `%name` / `%"quoted"` (text = name). */
  LocalVar,
  /** `%123` (num). */
  LocalVarID,
  GlobalVar,
  GlobalID,
  /** `$name`. */
  ComdatVar,
  /** `!name` (text = unescaped name). */
  MetadataVar,
  /** `#123`. */
  AttrGrpID,
  /** `#dbg_value` and friends (text = `dbg_value`). */
  DbgRecord,
  /** `name:` or `"quoted":` (text = name). */
  LabelStr,
  /** `123:` (num). */
  LabelID,
  /** `"..."` (text = unescaped bytes). */
  String,
  /** Integer literal (text = digits with sign), including `u0x..`/`s0x..` (see hexInt). */
  Int,
  /** Decimal floating-point literal (text = as written). */
  Float,
  /** Hex floating-point literal `0x...`, `0xK...` etc. (text = as written). */
  HexFloat,
  /** `iN` integer type (num = width). */
  IntType,
  /** Keyword or other identifier made of [A-Za-z0-9_] (text). */
  Ident,
}

const CH_0 = 48;
const CH_9 = 57;

function isDigit(c: number): boolean {
  return c >= CH_0 && c <= CH_9;
}
function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isAlnum(c: number): boolean {
  return isAlpha(c) || isDigit(c);
}
function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
/** [-a-zA-Z$._0-9] */
function isLabelChar(c: number): boolean {
  return isAlnum(c) || c === 45 || c === 36 || c === 46 || c === 95;
}
/** First char of a variable name: [-a-zA-Z$._] */
function isVarStart(c: number): boolean {
  return isAlpha(c) || c === 45 || c === 36 || c === 46 || c === 95;
}

/**
 * The value of the decimal digits `src[start..end)`, as `Number(src.slice(start, end))` but
 * without a string for the usual few digits (`i32`, `%12`, `#3`, `7:`).
 */
export function decimalValue(src: string, start: number, end: number): number {
  // up to 15 digits the running value stays an exact integer
  if (end - start > 15) return Number(src.slice(start, end));
  let v = 0;
  for (let i = start; i < end; i++) v = v * 10 + (src.charCodeAt(i) - 48);
  return v;
}

/** Replaces `\\` with `\` and `\XX` (two hex digits) with the byte, as LLVM's UnEscapeLexed. */
export function unescape(raw: string): string {
  let i = raw.indexOf('\\');
  if (i < 0) return ownString(raw);
  const out = Buffer.allocUnsafe(raw.length);
  let n = out.write(raw.slice(0, i), 0, 'latin1');
  const len = raw.length;
  for (; i < len; i++) {
    const c = raw.charCodeAt(i);
    if (c === 92) {
      const next = raw.charCodeAt(i + 1);
      if (next === 92) {
        out[n++] = 92;
        i++;
        continue;
      }
      if (isHexDigit(next) && isHexDigit(raw.charCodeAt(i + 2))) {
        out[n++] = (hexValue(next) << 4) | hexValue(raw.charCodeAt(i + 2));
        i += 2;
        continue;
      }
    }
    out[n++] = c;
  }
  return out.toString('latin1', 0, n);
}

function hexValue(c: number): number {
  return c <= 57 ? c - 48 : (c | 32) - 87;
}

/**
 * `s` as a string of its own. V8 keeps a slice of 13 or more characters as a view into the string
 * it was cut from, so one long name kept by the module would keep the whole input text alive
 * (10 MiB for a 10 MiB file).
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : structuredClone(s);
}

/** `src.slice(start, end)` as a string of its own (see {@link ownString}). */
function ownSlice(src: string, start: number, end: number): string {
  return ownString(src.slice(start, end));
}

/** The one string `table` keeps for `src.slice(start, end)` (whose hash is `hash`), added on first sight. */
function internSpan(table: NameTable<string>, src: string, start: number, end: number, hash: number): string {
  let t = table.getHashed(src, start, end, hash);
  if (t === undefined) {
    t = ownSlice(src, start, end);
    table.setHashed(t, t, hash);
  }
  return t;
}

/**
 * `s` as V8's one internalized copy of that spelling (property keys are internalized): the
 * parser compares keywords with literals (`switch (op)`, `=== 'align'`) and looks them up in
 * sets, and two internalized strings compare by identity instead of character by character.
 */
function internalized(s: string): string {
  const holder: Record<string, true> = {};
  holder[s] = true;
  for (const key in holder) return key;
  return s;
}

/** {@link internSpan} for keywords and other identifiers: the kept string is internalized. */
function internKeyword(table: NameTable<string>, src: string, start: number, end: number, hash: number): string {
  let t = table.getHashed(src, start, end, hash);
  if (t === undefined) {
    t = internalized(src.slice(start, end));
    table.setHashed(t, t, hash);
  }
  return t;
}

export class Lexer {
  readonly src: string;
  readonly file: string;
  pos = 0;
  /** Current token. */
  kind: Tok = Tok.Eof;
  start = 0;
  num = 0;
  /**
   * Token text. For identifiers, plain (unquoted) names, labels and decimal integers it is
   * sliced from the source only when asked for; `textStart`/`textEnd` delimit it meanwhile.
   */
  private textValue: string | null = '';
  textStart = 0;
  textEnd = 0;
  /**
   * For an identifier, name or label whose text is a span: {@link NameTable.hashSpan} of it,
   * computed while scanning, so looking the token up takes no second pass over its characters.
   */
  textHash = 0;
  /** Value of a small decimal integer token, computed while lexing (else undefined). */
  intNumber: number | undefined = undefined;

  get text(): string {
    // small enough for V8 to inline at every use; the span path is a call of its own, compiled once
    const v = this.textValue;
    return v !== null ? v : this.spanText();
  }

  /**
   * The text of a local or global name or an integer token, made only when asked for: most uses
   * of a name are looked up by their span (see {@link textHash}), most integers by {@link intNumber}.
   */
  private spanText(): string {
    const { kind, textStart: start, textEnd: end } = this;
    let t: string;
    // local names repeat from function to function (%call, %arrayidx): one string per spelling
    if (kind === Tok.LocalVar) t = internSpan(this.localNames, this.src, start, end, this.textHash);
    // a global's name is asked for at its definition and at uses before it (calls to later functions)
    else if (kind === Tok.GlobalVar) t = internSpan(this.globalNames, this.src, start, end, this.textHash);
    else t = ownSlice(this.src, start, end);
    return (this.textValue = t);
  }
  private readonly identifiers = new NameTable<string>(256);
  private readonly localNames = new NameTable<string>(1024);
  private readonly globalNames = new NameTable<string>(1024);

  /** Whether the text is still a span of the source (so span lookups can be used). */
  get textIsSpan(): boolean {
    return this.textValue === null;
  }
  set text(value: string) {
    this.textValue = value;
  }

  /** Whether the current token's text starts with `prefix` (no allocation while it is a span). */
  textStartsWith(prefix: string): boolean {
    if (this.textValue !== null) return this.textValue.startsWith(prefix);
    return this.textEnd - this.textStart >= prefix.length && this.src.startsWith(prefix, this.textStart);
  }

  /** Whether the current token is the identifier `word`. */
  isIdent(word: string): boolean {
    // an identifier's text is the interned keyword (see lexIdentifier), usually `word` itself
    return this.kind === Tok.Ident && this.textValue === word;
  }

  /** Saves the lexer position (for one-token lookahead). */
  save(): void {
    this.savedPos = this.pos;
    this.savedKind = this.kind;
    this.savedStart = this.start;
    this.savedNum = this.num;
    this.savedText = this.textValue;
    this.savedTextStart = this.textStart;
    this.savedTextEnd = this.textEnd;
    this.savedHash = this.textHash;
    this.savedInt = this.intNumber;
  }
  restore(): void {
    this.pos = this.savedPos;
    this.kind = this.savedKind;
    this.start = this.savedStart;
    this.num = this.savedNum;
    this.textValue = this.savedText;
    this.textStart = this.savedTextStart;
    this.textEnd = this.savedTextEnd;
    this.textHash = this.savedHash;
    this.intNumber = this.savedInt;
  }
  /** Moves to the token that starts at `offset` (a `start` seen earlier) and lexes it again. */
  seek(offset: number): Tok {
    this.pos = offset;
    return this.next();
  }
  private savedPos = 0;
  private savedKind: Tok = Tok.Eof;
  private savedStart = 0;
  private savedNum = 0;
  private savedText: string | null = '';
  private savedTextStart = 0;
  private savedTextEnd = 0;
  private savedHash = 0;
  private savedInt: number | undefined = undefined;

  constructor(src: string, file: string) {
    this.src = src;
    this.file = file;
  }

  error(message: string, at = this.start): IrSyntaxError {
    return IrSyntaxError.at(this.src, this.file, at, message);
  }

  /** Advances to the next token and returns its kind. */
  next(): Tok {
    const src = this.src;
    const len = src.length;
    let p = this.pos;
    for (;;) {
      // skip whitespace and comments
      while (p < len) {
        const c = src.charCodeAt(p);
        if (c === 32 || c === 10 || c === 9 || c === 13 || c === 0) {
          p++;
          continue;
        }
        if (c === 59 /* ; */) {
          while (p < len && src.charCodeAt(p) !== 10) p++;
          continue;
        }
        if (c === 47 /* / */ && src.charCodeAt(p + 1) === 42 /* * */) {
          const end = src.indexOf('*/', p + 2);
          if (end < 0) {
            this.start = p;
            throw this.error('unterminated comment');
          }
          p = end + 2;
          continue;
        }
        break;
      }
      this.start = p;
      if (p >= len) {
        this.pos = p;
        return (this.kind = Tok.Eof);
      }
      const c = src.charCodeAt(p);
      switch (c) {
        case 61:
          return this.single(p, Tok.Equal);
        case 44:
          return this.single(p, Tok.Comma);
        case 42:
          return this.single(p, Tok.Star);
        case 91:
          return this.single(p, Tok.LSquare);
        case 93:
          return this.single(p, Tok.RSquare);
        case 123:
          return this.single(p, Tok.LBrace);
        case 125:
          return this.single(p, Tok.RBrace);
        case 60:
          return this.single(p, Tok.Less);
        case 62:
          return this.single(p, Tok.Greater);
        case 40:
          return this.single(p, Tok.LParen);
        case 41:
          return this.single(p, Tok.RParen);
        case 124:
          return this.single(p, Tok.Bar);
        case 58:
          return this.single(p, Tok.Colon);
        case 37: // %
          return this.lexVar(p, Tok.LocalVar, Tok.LocalVarID);
        case 64: // @
          return this.lexVar(p, Tok.GlobalVar, Tok.GlobalID);
        case 36: {
          // $name or $"quoted"
          if (src.charCodeAt(p + 1) === 34) {
            const end = this.stringEnd(p + 1);
            this.text = unescape(src.slice(p + 2, end));
            this.pos = end + 1;
            return (this.kind = Tok.ComdatVar);
          }
          let q = p + 1;
          while (q < len && isLabelChar(src.charCodeAt(q))) q++;
          if (q === p + 1) throw this.error('expected comdat name after $');
          this.text = ownSlice(src, p + 1, q);
          this.pos = q;
          return (this.kind = Tok.ComdatVar);
        }
        case 33: {
          // ! : metadata name or a bare exclaim
          const d = src.charCodeAt(p + 1);
          if (isVarStart(d) || d === 92) {
            let q = p + 1;
            let escaped = false;
            for (;;) {
              const e = src.charCodeAt(q);
              if (isLabelChar(e)) q++;
              else if (e === 92) {
                escaped = true;
                q++;
              } else break;
            }
            if (escaped) this.text = unescape(src.slice(p + 1, q));
            else this.text = internKeyword(this.identifiers, src, p + 1, q, NameTable.hashSpan(src, p + 1, q));
            this.pos = q;
            return (this.kind = Tok.MetadataVar);
          }
          return this.single(p, Tok.Exclaim);
        }
        case 35: {
          // #123 or #dbg_xxx
          let q = p + 1;
          if (isDigit(src.charCodeAt(q))) {
            while (isDigit(src.charCodeAt(q))) q++;
            this.num = decimalValue(src, p + 1, q);
            this.pos = q;
            return (this.kind = Tok.AttrGrpID);
          }
          while (q < len && (isAlnum(src.charCodeAt(q)) || src.charCodeAt(q) === 95)) q++;
          if (q === p + 1) throw this.error("expected attribute group id or debug record after '#'");
          this.text = src.slice(p + 1, q);
          this.pos = q;
          return (this.kind = Tok.DbgRecord);
        }
        case 34: {
          // "string" or "label":
          const end = this.stringEnd(p);
          this.text = unescape(src.slice(p + 1, end));
          if (src.charCodeAt(end + 1) === 58) {
            this.pos = end + 2;
            return (this.kind = Tok.LabelStr);
          }
          this.pos = end + 1;
          return (this.kind = Tok.String);
        }
        case 46: {
          // .label: or ...
          if (src.charCodeAt(p + 1) === 46 && src.charCodeAt(p + 2) === 46) {
            this.pos = p + 3;
            return (this.kind = Tok.DotDotDot);
          }
          const q = this.labelTail(p);
          if (q >= 0) {
            this.text = ownSlice(src, p, q - 1);
            this.pos = q;
            return (this.kind = Tok.LabelStr);
          }
          return this.errorToken(p);
        }
        case 43: // +
        case 45: // -
          return this.lexNumberOrLabel(p);
        default:
          if (isDigit(c)) return this.lexNumberOrLabel(p);
          if (isAlpha(c) || c === 95) return this.lexIdentifier(p);
          return this.errorToken(p);
      }
    }
  }

  /**
   * A character no token starts with (or a stray `-`, `+` or `.`): like LLVM's lexer, an error
   * token of that one character, so the parser reports what it expected there.
   */
  private errorToken(p: number): Tok {
    this.start = p;
    this.pos = p + 1;
    return (this.kind = Tok.Error);
  }

  private single(p: number, kind: Tok): Tok {
    this.pos = p + 1;
    return (this.kind = kind);
  }

  /** Index of the closing quote of a string starting at `p` (a `"`). */
  private stringEnd(p: number): number {
    const end = this.src.indexOf('"', p + 1);
    if (end < 0) throw this.error('end of file in string constant', p);
    return end;
  }

  /** If `[-a-zA-Z$._0-9]*:` follows at `p`, the index after the colon; else -1. */
  private labelTail(p: number): number {
    const src = this.src;
    let q = p;
    while (q < src.length && isLabelChar(src.charCodeAt(q))) q++;
    return src.charCodeAt(q) === 58 ? q + 1 : -1;
  }

  private lexVar(p: number, named: Tok, numbered: Tok): Tok {
    const src = this.src;
    const c = src.charCodeAt(p + 1);
    if (c === 34) {
      const end = this.stringEnd(p + 1);
      let plain = true;
      let h = FNV_OFFSET;
      for (let i = p + 2; i < end && plain; i++) {
        const k = src.charCodeAt(i);
        plain = k !== 92 && k !== 0;
        h = Math.imul(h ^ k, FNV_PRIME);
      }
      if (plain) {
        // like an unquoted name: read from the source only when asked for (`%"class.sycl::_V1::id"`)
        this.textValue = null;
        this.textHash = h;
        this.textStart = p + 2;
        this.textEnd = end;
        this.pos = end + 1;
        return (this.kind = named);
      }
      const name = unescape(src.slice(p + 2, end));
      if (name.indexOf('\0') >= 0) throw this.error('Null bytes are not allowed in names');
      this.text = name;
      this.pos = end + 1;
      return (this.kind = named);
    }
    if (isVarStart(c)) {
      let h = Math.imul(FNV_OFFSET ^ c, FNV_PRIME);
      let q = p + 2;
      for (;;) {
        const e = src.charCodeAt(q);
        // [-a-zA-Z$._0-9]
        if ((e >= 97 && e <= 122) || (e >= 65 && e <= 90) || (e >= 48 && e <= 57) || e === 45 || e === 36 || e === 46 || e === 95) {
          h = Math.imul(h ^ e, FNV_PRIME);
          q++;
        } else break;
      }
      this.textValue = null;
      this.textHash = h;
      this.textStart = p + 1;
      this.textEnd = q;
      this.pos = q;
      return (this.kind = named);
    }
    if (isDigit(c)) {
      let q = p + 1;
      while (isDigit(src.charCodeAt(q))) q++;
      this.num = decimalValue(src, p + 1, q);
      this.pos = q;
      return (this.kind = numbered);
    }
    throw this.error(`expected a name or number after '${src[p]}'`);
  }

  private lexNumberOrLabel(p: number): Tok {
    const src = this.src;
    const first = src.charCodeAt(p);
    let q = p + 1;
    if (!isDigit(first) && !isDigit(src.charCodeAt(q))) {
      // `-label:` (only `-` can start a label here)
      const end = first === 45 ? this.labelTail(q) : -1;
      if (end >= 0) {
        this.text = ownSlice(src, p, end - 1);
        this.pos = end;
        return (this.kind = Tok.LabelStr);
      }
      return this.errorToken(p);
    }
    while (isDigit(src.charCodeAt(q))) q++;
    const after = src.charCodeAt(q);
    if (isDigit(first) && after === 58) {
      this.num = decimalValue(src, p, q);
      this.pos = q + 1;
      return (this.kind = Tok.LabelID);
    }
    if (first === 48 && q === p + 1 && after === 120 /* x */) return this.lexHex(p);
    if (after !== 46 /* . */ && (isLabelChar(after) || after === 58)) {
      const end = this.labelTail(q);
      if (end >= 0) {
        this.text = ownSlice(src, p, end - 1);
        this.pos = end;
        return (this.kind = Tok.LabelStr);
      }
    }
    if (after !== 46) {
      if (first === 43) return this.errorToken(p);
      this.textValue = null;
      this.textStart = p;
      this.textEnd = q;
      this.intNumber = undefined;
      if (q - p <= 15) {
        let v = 0;
        for (let i = first === 45 ? p + 1 : p; i < q; i++) v = v * 10 + (src.charCodeAt(i) - 48);
        this.intNumber = first === 45 ? -v : v;
      }
      this.pos = q;
      return (this.kind = Tok.Int);
    }
    q++;
    while (isDigit(src.charCodeAt(q))) q++;
    const e = src.charCodeAt(q);
    if (e === 101 || e === 69) {
      const s = src.charCodeAt(q + 1);
      if (isDigit(s) || ((s === 45 || s === 43) && isDigit(src.charCodeAt(q + 2)))) {
        q += 2;
        while (isDigit(src.charCodeAt(q))) q++;
      }
    }
    this.text = src.slice(p, q);
    this.pos = q;
    return (this.kind = Tok.Float);
  }

  private lexHex(p: number): Tok {
    const src = this.src;
    let q = p + 2;
    const k = src.charCodeAt(q);
    if ((k >= 75 && k <= 77) || k === 72 || k === 82) q++; // K L M H R
    if (!isHexDigit(src.charCodeAt(q))) throw this.error('invalid hexadecimal floating-point constant');
    while (isHexDigit(src.charCodeAt(q))) q++;
    this.text = src.slice(p, q);
    this.pos = q;
    return (this.kind = Tok.HexFloat);
  }

  private lexIdentifier(p: number): Tok {
    const src = this.src;
    // keyword characters first; most identifiers end there
    let h = Math.imul(FNV_OFFSET ^ src.charCodeAt(p), FNV_PRIME);
    let k = p + 1;
    for (;;) {
      const c = src.charCodeAt(k);
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95) {
        h = Math.imul(h ^ c, FNV_PRIME);
        k++;
      } else break;
    }
    const after = src.charCodeAt(k);
    if (after === 58 || after === 45 || after === 36 || after === 46) {
      let q = k;
      let labelHash = h;
      for (;;) {
        const c = src.charCodeAt(q);
        if (!isLabelChar(c)) break;
        labelHash = Math.imul(labelHash ^ c, FNV_PRIME);
        q++;
      }
      if (src.charCodeAt(q) === 58) {
        // a block's label: its name is wanted at once (block names repeat like local names)
        this.textValue = internSpan(this.localNames, src, p, q, labelHash);
        this.textHash = labelHash;
        this.textStart = p;
        this.textEnd = q;
        this.pos = q + 1;
        return (this.kind = Tok.LabelStr);
      }
    }
    // iN integer type: 'i' followed by digits (stop at the first non-digit)
    if (src.charCodeAt(p) === 105 && isDigit(src.charCodeAt(p + 1))) {
      let r = p + 1;
      while (isDigit(src.charCodeAt(r))) r++;
      const bits = decimalValue(src, p + 1, r);
      if (bits < 1 || bits > 8388608) throw this.error('bitwidth for integer type out of range!');
      this.num = bits;
      this.pos = r;
      return (this.kind = Tok.IntType);
    }
    // [us]0x... hexadecimal integer
    const c0 = src.charCodeAt(p);
    if ((c0 === 117 || c0 === 115) && src.charCodeAt(p + 1) === 48 && src.charCodeAt(p + 2) === 120 && isHexDigit(src.charCodeAt(p + 3))) {
      let r = p + 3;
      while (isHexDigit(src.charCodeAt(r))) r++;
      this.text = src.slice(p, r);
      this.intNumber = undefined;
      this.pos = r;
      return (this.kind = Tok.Int);
    }
    // keywords repeat endlessly and the parser asks for nearly every one: the one interned string
    // per spelling, found while the characters are fresh
    this.textValue = internKeyword(this.identifiers, src, p, k, h);
    this.textHash = h;
    this.textStart = p;
    this.textEnd = k;
    this.pos = k;
    return (this.kind = Tok.Ident);
  }

  /** Peeks at the raw character after the current token (used for `c"..."`-style adjacency). */
  peekChar(): number {
    return this.src.charCodeAt(this.pos);
  }
}

/**
 * IR that takes {@link Lexer.next} through every kind of token and every branch that reads one.
 * V8 compiles an optimized `next` from the tokens it has seen after the first few thousand; the
 * header and first function of a module lack most of these (numbered values, labels, metadata
 * names, `...`, negative numbers), and each one met later throws that code away and compiles
 * `next` and its callers again: four compiles where one does. Lexing this once per process first
 * gives V8 the whole picture (see {@link warmUpLexer}).
 */
export const WARM_UP_TEXT = [
  '; comment',
  '/* block comment */ source_filename = "x"\r\t\0',
  '%T = type { i32, ptr }',
  '%"quoted type" = type opaque',
  '$c = comdat any',
  '$"quoted comdat" = comdat any',
  '@g = global [2 x i8] c"a\\00", align 1',
  '@"q\\41" = external global <2 x i32>',
  '@0 = private constant i32 -1, !dbg !0',
  'define void @f(i32 %0, ptr %"a b", ptr %"c\\41d", ...) #0 !dbg !1 {',
  'entry:',
  '  %1 = add i32 %0, +1',
  '  %x.y = fadd double 1.5, 0x3FF0000000000000',
  '  %z = fadd float -2.5e+10, 0xK4000',
  '  %h = add i64 u0x1F, s0x1F',
  // past 2^31: the digit loop is compiled for doubles from the start (no deopt at the first such constant)
  '  %big = add i64 %h, 12345678901234',
  '  br label %"next block"',
  '"next block":',
  '  br label %3',
  '3:',
  '-neg:',
  '.dot:',
  '1x:',
  'a.b-c$d:',
  '  call void @f(i32 0, ptr null) #1 [ "tag"(i32 1) ], !a.b !{!"s", !DIExpression(DW_OP_LLVM_fragment, 0, 8), !DIFlags(DIFlagA | DIFlagB)}',
  '  #dbg_value(ptr %x, !2, !DIExpression(), !3)',
  '  ret void',
  '}',
  '!named = !{!0}',
  '!\\41esc = !{!"\\41"}',
  'attributes #0 = { "key"="value" nounwind }',
  '* | :',
].join('\n');

let lexerWarmedUp = false;

/**
 * Lexes {@link WARM_UP_TEXT} once per process (well under a millisecond). Several times: V8 only
 * starts recording what a function sees after its first few calls.
 */
export function warmUpLexer(): void {
  if (lexerWarmedUp) return;
  lexerWarmedUp = true;
  for (let round = 0; round < 4; round++) {
    const lexer = new Lexer(WARM_UP_TEXT, '<warm-up>');
    for (let kind = lexer.next(); kind !== Tok.Eof; kind = lexer.next()) {
      if (kind === Tok.Ident || kind === Tok.LocalVar || kind === Tok.GlobalVar || kind === Tok.LabelStr || kind === Tok.Int) void lexer.text;
    }
  }
}

/** Value of an integer token as a number when it is exactly representable, else a bigint. */
export function intTokenNumber(text: string): number | bigint {
  // up to 15 digits always fits a double exactly
  if (text.length <= 15 && text.charCodeAt(0) !== 117 && text.charCodeAt(0) !== 115) return Number(text);
  const v = intTokenValue(text);
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

/** Value of an integer token: decimal (possibly signed) or `u0x`/`s0x` hex. */
export function intTokenValue(text: string): bigint {
  const c = text.charCodeAt(0);
  if ((c === 117 || c === 115) && text[1] === '0' && text[2] === 'x') {
    const digits = text.slice(3);
    const v = BigInt('0x' + digits);
    if (c === 115) return BigInt.asIntN(digits.length * 4, v);
    return v;
  }
  return BigInt(text);
}
