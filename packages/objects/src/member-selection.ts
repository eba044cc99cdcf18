/**
 * Which archive members a link pulls in, as a linker does: a member is linked when it defines a
 * symbol that something already linked needs and nothing linked defines; its own needs then count
 * too, until nothing more is needed that a member defines (every archive is searched for every
 * need, as if all archives were in one `--start-group`). Symbols are opaque strings: the device
 * link passes device symbols, host symbols and the kernels the host refers to, each kept apart by
 * a prefix.
 *
 * Linear in the symbols: members are indexed by what they define, and needs are handled from a
 * queue; for a need, the first member (in archive order, archives in order) that defines it is
 * linked.
 */

export interface LinkInput {
  /** Symbols it defines. */
  readonly defines: readonly string[];
  /** Symbols it needs from elsewhere. */
  readonly needs: readonly string[];
}

export interface MemberChoice<M> {
  readonly member: M;
  /** The symbol that pulled it in. */
  readonly because: string;
}

/**
 * Members of `archives` (each an array of members, in archive order) that `linked` pulls in,
 * directly or through other members, in the order they were pulled.
 */
export function selectArchiveMembers<M extends LinkInput>(linked: readonly LinkInput[], archives: readonly (readonly M[])[]): MemberChoice<M>[] {
  const providers = new Map<string, M[]>();
  for (const archive of archives) {
    for (const member of archive) {
      for (const symbol of member.defines) {
        const list = providers.get(symbol);
        if (list === undefined) providers.set(symbol, [member]);
        else if (list[list.length - 1] !== member) list.push(member);
      }
    }
  }
  const defined = new Set<string>();
  const queue: string[] = [];
  const add = (input: LinkInput): void => {
    for (const symbol of input.defines) defined.add(symbol);
    for (const symbol of input.needs) if (!defined.has(symbol)) queue.push(symbol);
  };
  for (const input of linked) for (const symbol of input.defines) defined.add(symbol);
  for (const input of linked) for (const symbol of input.needs) if (!defined.has(symbol)) queue.push(symbol);
  const chosen: MemberChoice<M>[] = [];
  const taken = new Set<M>();
  for (let i = 0; i < queue.length; i++) {
    const symbol = queue[i]!;
    if (defined.has(symbol)) continue;
    const member = providers.get(symbol)?.find((m) => !taken.has(m));
    if (member === undefined) continue; // nothing provides it: the caller's checks report it
    taken.add(member);
    chosen.push({ member, because: symbol });
    add(member);
  }
  return chosen;
}
