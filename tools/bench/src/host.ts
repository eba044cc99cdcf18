/** What the report says about the machine a benchmark ran on, beyond `environment()`. */
import { readFileSync, statfsSync } from 'node:fs';

const FILESYSTEMS: Readonly<Record<number, string>> = {
  0xef53: 'ext2/3/4',
  0x01021994: 'tmpfs',
  0x58465342: 'xfs',
  0x9123683e: 'btrfs',
  0x794c7630: 'overlayfs',
  0x6969: 'nfs',
  0x2fc12fc1: 'zfs',
};

/** `ext2/3/4`, `tmpfs`, …: what holds `dir` (statfs). */
export function filesystemOf(dir: string): string {
  try {
    const type = Number(statfsSync(dir).type);
    return FILESYSTEMS[type] ?? `filesystem type 0x${type.toString(16)}`;
  } catch {
    return 'unknown filesystem';
  }
}

/** The load averages over 1, 5 and 15 minutes, for the report (`n/a` where /proc/loadavg is missing). */
export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}

