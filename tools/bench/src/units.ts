/** Sizes and durations as people type and read them. */

const sizeUnits: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/**
 * `10MB`, `10 MiB`, `512k`, `1.5G`, `1000000` -> bytes. Units are binary (MB = MiB = 2^20) so
 * "at least 10 MB" holds whichever convention the reader has in mind.
 */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const unit = match ? sizeUnits[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) throw new RangeError(`not a size: '${text}' (examples: 10MB, 512KiB, 2000000)`);
  return Math.ceil(Number(match[1]) * unit);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

export function formatKilobytes(kb: number | null): string {
  return kb === null ? 'n/a' : formatBytes(kb * 1024);
}

export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return 'n/a';
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
  return `${(ms / 1000).toFixed(ms < 100_000 ? 3 : 1)} s`;
}
