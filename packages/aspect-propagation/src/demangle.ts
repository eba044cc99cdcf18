/**
 * A small Itanium C++ ABI demangler for diagnostics: clang names functions in the aspect warnings
 * by their demangled names (`func1(int)`), as `llvm::demangle` prints them (LLVM 16 spelling:
 * `'lambda'(int)`, `'unnamed'`, `vector<int, allocator<int>>`). It covers what SYCL
 * device code names look like — namespaces, classes, templates with type and integer arguments,
 * constructors and destructors, common operators, cv-qualified methods, lambdas and other local
 * entities, substitutions, pointers, references, arrays and function types — and gives up
 * (undefined) on anything else, so callers fall back to the mangled name. It never guesses.
 */

type TypeNode =
  | { readonly k: 'name'; readonly text: string }
  | { readonly k: 'qual'; readonly inner: TypeNode; readonly quals: string } // ' const' etc.
  | { readonly k: 'ptr'; readonly inner: TypeNode; readonly op: '*' | '&' | '&&' }
  | { readonly k: 'fn'; readonly ret: TypeNode | undefined; readonly params: readonly TypeNode[]; readonly quals: string }
  | { readonly k: 'array'; readonly elem: TypeNode; readonly dim: string };

class Fail extends Error {}

const BUILTIN: Readonly<Record<string, string>> = {
  v: 'void',
  w: 'wchar_t',
  b: 'bool',
  c: 'char',
  a: 'signed char',
  h: 'unsigned char',
  s: 'short',
  t: 'unsigned short',
  i: 'int',
  j: 'unsigned int',
  l: 'long',
  m: 'unsigned long',
  x: 'long long',
  y: 'unsigned long long',
  n: '__int128',
  o: 'unsigned __int128',
  f: 'float',
  d: 'double',
  e: 'long double',
  g: '__float128',
  z: '...',
};

const BUILTIN_D: Readonly<Record<string, string>> = {
  h: 'half',
  n: 'std::nullptr_t',
  a: 'auto',
  c: 'decltype(auto)',
  i: 'char32_t',
  s: 'char16_t',
  u: 'char8_t',
};

const OPERATORS: Readonly<Record<string, string>> = {
  nw: 'new',
  na: 'new[]',
  dl: 'delete',
  da: 'delete[]',
  ps: '+',
  ng: '-',
  ad: '&',
  de: '*',
  co: '~',
  pl: '+',
  mi: '-',
  ml: '*',
  dv: '/',
  rm: '%',
  an: '&',
  or: '|',
  eo: '^',
  aS: '=',
  pL: '+=',
  mI: '-=',
  mL: '*=',
  dV: '/=',
  rM: '%=',
  aN: '&=',
  oR: '|=',
  eO: '^=',
  ls: '<<',
  rs: '>>',
  lS: '<<=',
  rS: '>>=',
  eq: '==',
  ne: '!=',
  lt: '<',
  gt: '>',
  le: '<=',
  ge: '>=',
  ss: '<=>',
  nt: '!',
  aa: '&&',
  oo: '||',
  pp: '++',
  mm: '--',
  cm: ',',
  pm: '->*',
  pt: '->',
  cl: '()',
  ix: '[]',
};

const STD_SUBSTITUTIONS: Readonly<Record<string, string>> = {
  t: 'std',
  a: 'std::allocator',
  b: 'std::basic_string',
  s: 'std::string',
  i: 'std::istream',
  o: 'std::ostream',
  d: 'std::iostream',
};

interface NameResult {
  readonly text: string;
  /** The name ends in template arguments (its function type then starts with the return type). */
  readonly template: boolean;
  /** A constructor, destructor or conversion operator (no return type even when templated). */
  readonly noReturn: boolean;
  /** Method qualifiers from a nested name (` const`, ` &`). */
  readonly quals: string;
}

class Parser {
  private pos = 0;
  private readonly subs: TypeNode[] = [];
  private templateArgs: TypeNode[] = [];

  constructor(private readonly s: string) {}

  run(): string {
    if (!this.s.startsWith('_Z')) throw new Fail();
    this.pos = 2;
    const text = this.encoding(true);
    // Clone suffixes such as `.123` or `.cold` are printed in parentheses by llvm::demangle.
    if (this.pos < this.s.length) {
      if (this.s[this.pos] !== '.') throw new Fail();
      return `${text} (${this.s.slice(this.pos)})`;
    }
    return text;
  }

  private peek(offset = 0): string {
    return this.s[this.pos + offset] ?? '';
  }

  private eat(text: string): boolean {
    if (this.s.startsWith(text, this.pos)) {
      this.pos += text.length;
      return true;
    }
    return false;
  }

  private expect(text: string): void {
    if (!this.eat(text)) throw new Fail();
  }

  private encoding(top: boolean): string {
    if (this.eat('TS')) return `typeinfo name for ${render(this.type())}`;
    if (this.eat('TI')) return `typeinfo for ${render(this.type())}`;
    if (this.eat('TV')) return `vtable for ${render(this.type())}`;
    const name = this.name();
    if (this.pos >= this.s.length || this.peek() === 'E' || this.peek() === '.') {
      if (!top && this.peek() !== 'E') throw new Fail();
      return name.text;
    }
    let ret: TypeNode | undefined;
    if (name.template && !name.noReturn) ret = this.type();
    const params: TypeNode[] = [];
    while (this.pos < this.s.length && this.peek() !== 'E' && this.peek() !== '.') params.push(this.type());
    if (params.length === 0) throw new Fail();
    const list = params.length === 1 && params[0]!.k === 'name' && params[0]!.text === 'void' ? '' : params.map(render).join(', ');
    return `${ret === undefined ? '' : render(ret) + ' '}${name.text}(${list})${name.quals}`;
  }

  private name(): NameResult {
    if (this.peek() === 'N') return this.nestedName();
    if (this.peek() === 'Z') return this.localName();
    let text: string;
    let noReturn = false;
    if (this.eat('St')) text = 'std::' + this.unqualifiedName().text;
    else if (this.peek() === 'S') {
      const sub = this.substitution();
      if (this.peek() !== 'I') throw new Fail();
      text = render(sub);
    } else {
      const u = this.unqualifiedName();
      text = u.text;
      noReturn = u.noReturn;
    }
    if (this.peek() === 'I') {
      this.subs.push({ k: 'name', text });
      text += this.templateArgList(true);
      return { text, template: true, noReturn, quals: '' };
    }
    return { text, template: false, noReturn, quals: '' };
  }

  private nestedName(): NameResult {
    this.expect('N');
    let quals = '';
    for (;;) {
      if (this.eat('r')) quals += ' restrict';
      else if (this.eat('V')) quals += ' volatile';
      else if (this.eat('K')) quals = ' const' + quals;
      else break;
    }
    if (this.eat('R')) quals += ' &';
    else if (this.eat('O')) quals += ' &&';
    let prefix = '';
    let last = '';
    let template = false;
    let noReturn = false;
    while (!this.eat('E')) {
      if (this.pos >= this.s.length) throw new Fail();
      template = false;
      noReturn = false;
      if (this.peek() === 'I') {
        if (prefix === '') throw new Fail();
        prefix += this.templateArgList(true);
        template = true;
        this.subs.push({ k: 'name', text: prefix });
        continue;
      }
      if (this.peek() === 'S' && this.peek(1) !== 't') {
        const sub = this.substitution();
        prefix = render(sub);
        last = prefix.slice(prefix.lastIndexOf('::') + 2);
        continue;
      }
      if (this.eat('St')) {
        prefix = 'std';
        continue;
      }
      if (this.peek() === 'T' && (this.peek(1) === '_' || isDigit(this.peek(1)))) {
        prefix = render(this.templateParam());
        this.subs.push({ k: 'name', text: prefix });
        continue;
      }
      if (this.eat('M')) continue; // data-member-prefix of a closure in a default member initializer
      let part: string;
      if (this.peek() === 'C' && (this.peek(1) === '1' || this.peek(1) === '2' || this.peek(1) === '3' || this.peek(1) === '4')) {
        this.pos += 2;
        part = baseName(last);
        noReturn = true;
      } else if (this.peek() === 'D' && '0124'.includes(this.peek(1))) {
        this.pos += 2;
        part = '~' + baseName(last);
        noReturn = true;
      } else {
        const u = this.unqualifiedName();
        part = u.text;
        noReturn = u.noReturn;
      }
      last = part;
      prefix = prefix === '' ? part : `${prefix}::${part}`;
      this.subs.push({ k: 'name', text: prefix });
    }
    // The last component is not a substitution candidate when it is the function's own name.
    this.subs.pop();
    return { text: prefix, template, noReturn, quals };
  }

  private localName(): NameResult {
    this.expect('Z');
    const saved = this.templateArgs;
    const outer = this.encoding(false);
    this.templateArgs = saved;
    this.expect('E');
    if (this.eat('s')) {
      this.discriminator();
      return { text: `${outer}::string literal`, template: false, noReturn: false, quals: '' };
    }
    const inner = this.name();
    this.discriminator();
    return { ...inner, text: `${outer}::${inner.text}` };
  }

  private discriminator(): void {
    // Extension (LLVM): bare digits at the very end of the name.
    if (isDigit(this.peek()) && /^\d+$/.test(this.s.slice(this.pos))) {
      this.pos = this.s.length;
      return;
    }
    if (this.eat('__')) {
      this.number();
      this.expect('_');
    } else if (this.peek() === '_' && isDigit(this.peek(1))) {
      this.pos += 2;
    }
  }

  private unqualifiedName(): { text: string; noReturn: boolean } {
    const c = this.peek();
    if (isDigit(c)) return { text: this.sourceName(), noReturn: false };
    if (this.eat('Ut')) {
      const count = this.peek() === '_' ? '' : String(this.number());
      this.expect('_');
      return { text: `'unnamed${count}'`, noReturn: false };
    }
    if (this.eat('Ul')) {
      const params: TypeNode[] = [];
      while (!this.eat('E')) params.push(this.type());
      const count = this.peek() === '_' ? '' : String(this.number());
      this.expect('_');
      const list = params.length === 1 && params[0]!.k === 'name' && params[0]!.text === 'void' ? '' : params.map(render).join(', ');
      return { text: `'lambda${count}'(${list})`, noReturn: false };
    }
    if (this.eat('cv')) return { text: `operator ${render(this.type())}`, noReturn: true };
    const op = OPERATORS[this.s.slice(this.pos, this.pos + 2)];
    if (op !== undefined) {
      this.pos += 2;
      return { text: /^[a-z]/.test(op) ? `operator ${op}` : `operator${op}`, noReturn: false };
    }
    if (this.eat('L')) return this.unqualifiedName(); // internal linkage marker
    throw new Fail();
  }

  private sourceName(): string {
    const length = this.number();
    if (length <= 0 || this.pos + length > this.s.length) throw new Fail();
    const id = this.s.slice(this.pos, this.pos + length);
    this.pos += length;
    return id.startsWith('_GLOBAL__N') ? '(anonymous namespace)' : id;
  }

  private number(): number {
    const start = this.pos;
    while (isDigit(this.peek())) this.pos++;
    if (start === this.pos) throw new Fail();
    return Number(this.s.slice(start, this.pos));
  }

  /** `I args E`; `ofName`: they belong to the name being demangled (what `T_` then refers to). */
  private templateArgList(ofName = false): string {
    this.expect('I');
    const args: TypeNode[] = [];
    while (!this.eat('E')) args.push(this.templateArg());
    if (ofName) this.templateArgs = args;
    return `<${args.map(render).join(', ')}>`;
  }

  private templateArg(): TypeNode {
    if (this.eat('L')) {
      const literal = this.exprPrimary();
      return { k: 'name', text: literal };
    }
    if (this.eat('J')) {
      const items: TypeNode[] = [];
      while (!this.eat('E')) items.push(this.templateArg());
      return { k: 'name', text: items.map(render).join(', ') };
    }
    if (this.peek() === 'X') throw new Fail();
    return this.type();
  }

  /** After `L`: an integer or boolean literal of a builtin type, up to `E`. */
  private exprPrimary(): string {
    if (this.eat('_Z')) {
      const text = this.encoding(false);
      this.expect('E');
      return text;
    }
    const typeCode = this.peek();
    const typeName = BUILTIN[typeCode];
    if (typeName === undefined) {
      // A literal of an enumeration type: `(ns::mode)1026`.
      const type = this.type();
      const negative = this.eat('n');
      const value = this.number();
      this.expect('E');
      return `(${render(type)})${negative ? '-' : ''}${value}`;
    }
    this.pos++;
    const negative = this.eat('n');
    const value = this.number();
    this.expect('E');
    const v = `${negative ? '-' : ''}${value}`;
    switch (typeCode) {
      case 'b':
        return value === 0 ? 'false' : 'true';
      case 'i':
        return v;
      case 'j':
        return `${v}u`;
      case 'l':
        return `${v}l`;
      case 'm':
        return `${v}ul`;
      case 'x':
        return `${v}ll`;
      case 'y':
        return `${v}ull`;
      default:
        return `(${typeName})${v}`;
    }
  }

  private templateParam(): TypeNode {
    this.expect('T');
    const index = this.peek() === '_' ? 0 : this.number() + 1;
    this.expect('_');
    const arg = this.templateArgs[index];
    if (arg === undefined) throw new Fail();
    return arg;
  }

  private substitution(): TypeNode {
    this.expect('S');
    const std = STD_SUBSTITUTIONS[this.peek()];
    if (std !== undefined && this.peek() !== 't') {
      this.pos++;
      return { k: 'name', text: std };
    }
    let index = 0;
    if (!this.eat('_')) {
      let value = 0;
      const start = this.pos;
      while (/[0-9A-Z]/.test(this.peek())) {
        const c = this.peek();
        value = value * 36 + (isDigit(c) ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 55);
        this.pos++;
      }
      if (this.pos === start) throw new Fail();
      this.expect('_');
      index = value + 1;
    }
    const sub = this.subs[index];
    if (sub === undefined) throw new Fail();
    return sub;
  }

  private type(): TypeNode {
    const c = this.peek();
    const builtin = BUILTIN[c];
    if (builtin !== undefined && c !== 'z') {
      this.pos++;
      return { k: 'name', text: builtin };
    }
    if (c === 'z') {
      this.pos++;
      return { k: 'name', text: '...' };
    }
    if (c === 'D') {
      const d = BUILTIN_D[this.peek(1)];
      if (d !== undefined) {
        this.pos += 2;
        return { k: 'name', text: d };
      }
      if (this.eat('DF16_')) return { k: 'name', text: '_Float16' };
      if (this.eat('Dp')) return this.type(); // pack expansion: print the pattern
      throw new Fail();
    }
    if (c === 'K' || c === 'V' || c === 'r') {
      let quals = '';
      for (;;) {
        if (this.eat('r')) quals = ' restrict' + quals;
        else if (this.eat('V')) quals = ' volatile' + quals;
        else if (this.eat('K')) quals = ' const' + quals;
        else break;
      }
      const inner = this.type();
      const node: TypeNode = inner.k === 'fn' ? { ...inner, quals: inner.quals + quals } : { k: 'qual', inner, quals };
      this.subs.push(node);
      return node;
    }
    if (c === 'P' || c === 'R' || c === 'O') {
      this.pos++;
      const inner = this.type();
      const node: TypeNode = { k: 'ptr', inner, op: c === 'P' ? '*' : c === 'R' ? '&' : '&&' };
      this.subs.push(node);
      return node;
    }
    if (c === 'U') {
      // Vendor qualifier such as U3AS1 (address spaces in SYCL device code).
      this.pos++;
      const q = this.sourceName();
      const inner = this.type();
      const node: TypeNode = { k: 'qual', inner, quals: ` ${q}` };
      this.subs.push(node);
      return node;
    }
    if (c === 'F') {
      this.pos++;
      this.eat('Y');
      const ret = this.type();
      const params: TypeNode[] = [];
      while (!this.eat('E')) {
        if (this.eat('R') || this.eat('O')) {
          if (this.peek() !== 'E') throw new Fail();
          continue;
        }
        params.push(this.type());
      }
      const node: TypeNode = { k: 'fn', ret, params, quals: '' };
      this.subs.push(node);
      return node;
    }
    if (c === 'A') {
      this.pos++;
      const dim = isDigit(this.peek()) ? String(this.number()) : '';
      this.expect('_');
      const elem = this.type();
      const node: TypeNode = { k: 'array', elem, dim };
      this.subs.push(node);
      return node;
    }
    if (c === 'T' && (this.peek(1) === '_' || isDigit(this.peek(1)))) {
      const param = this.templateParam();
      this.subs.push(param);
      if (this.peek() === 'I') {
        const text = render(param) + this.templateArgList();
        const node: TypeNode = { k: 'name', text };
        this.subs.push(node);
        return node;
      }
      return param;
    }
    if (c === 'S') {
      if (this.eat('St')) {
        const text = 'std::' + this.unqualifiedName().text;
        const node: TypeNode = { k: 'name', text };
        this.subs.push(node);
        return this.maybeTemplate(node);
      }
      const sub = this.substitution();
      if (this.peek() === 'I') return this.maybeTemplate(sub);
      return sub;
    }
    if (c === 'N' || c === 'Z' || isDigit(c)) {
      // Template arguments inside a type do not change what `T_` means for the function.
      const saved = this.templateArgs;
      const name = c === 'N' ? this.nestedName() : c === 'Z' ? this.localName() : { text: this.sourceName() };
      this.templateArgs = saved;
      const node: TypeNode = { k: 'name', text: name.text };
      if (c === 'N') {
        // nestedName popped its last component; as a type it is a candidate.
        this.subs.push(node);
        return node;
      }
      this.subs.push(node);
      return this.maybeTemplate(node);
    }
    throw new Fail();
  }

  private maybeTemplate(node: TypeNode): TypeNode {
    if (this.peek() !== 'I') return node;
    const text = render(node) + this.templateArgList();
    const result: TypeNode = { k: 'name', text };
    this.subs.push(result);
    return result;
  }
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

/** The class name a constructor or destructor takes: the last component without template arguments. */
function baseName(component: string): string {
  const angle = component.indexOf('<');
  return angle < 0 ? component : component.slice(0, angle);
}

/** C++ spelling of a type: declarator parts (`(*)`, `[4]`, function parameter lists) go around the name. */
function render(node: TypeNode): string {
  return renderWith(node, '');
}

function renderWith(node: TypeNode, declarator: string): string {
  switch (node.k) {
    case 'name':
      return declarator === '' ? node.text : `${node.text} ${declarator}`.replace(/ (?=[*&])/, '');
    case 'qual':
      if (node.inner.k === 'name' || node.inner.k === 'qual') return renderWith({ k: 'name', text: renderWith(node.inner, '') + node.quals }, declarator);
      return renderWith(node.inner, `${node.quals.trim()} ${declarator}`.trim());
    case 'ptr': {
      const inner = node.inner;
      if (inner.k === 'fn' || inner.k === 'array') return renderWith(inner, `(${node.op}${declarator})`);
      return `${renderWith(inner, '')}${node.op}${declarator === '' ? '' : ' ' + declarator}`.replace(/\s+$/, '');
    }
    case 'fn': {
      const params = node.params.length === 1 && node.params[0]!.k === 'name' && node.params[0]!.text === 'void' ? '' : node.params.map(render).join(', ');
      const ret = node.ret === undefined ? '' : render(node.ret);
      return declarator === '' ? `${ret} (${params})${node.quals}` : `${ret} ${declarator}(${params})${node.quals}`;
    }
    case 'array':
      return `${render(node.elem)} ${declarator === '' ? '' : declarator + ' '}[${node.dim}]`;
  }
}

/** The demangled form of an Itanium-mangled name, or undefined when it is not one this covers. */
export function demangle(name: string): string | undefined {
  if (!name.startsWith('_Z')) return undefined;
  try {
    return new Parser(name).run();
  } catch (error) {
    if (error instanceof Fail || error instanceof RangeError) return undefined;
    throw error;
  }
}
