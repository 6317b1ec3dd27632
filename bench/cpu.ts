/**
 * CPU accounting of a measured block, to explain each ratio by a measurement rather than by noise:
 * the runtime's and the floor's own CPU (process.cpuUsage over IPC, microseconds), DynamoDB Local's JVM and
 * the whole machine (Linux /proc, clock ticks), and what is left: CPU used by other processes on the machine
 * during the block ("foreign" load). On a system without /proc the tick figures are NaN.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** utime + stime of a /proc/<pid>/stat line, in clock ticks (the command name may contain spaces and parentheses). */
export function parseProcessStat(text: string): number {
  const fields = text
    .slice(text.lastIndexOf(')') + 2)
    .trim()
    .split(/\s+/);
  // Field 3 (state) is fields[0]; utime and stime are fields 14 and 15.
  return Number(fields[11]) + Number(fields[12]);
}

/** Busy and total clock ticks of all CPUs from /proc/stat's first line (iowait counts as idle). */
export function parseMachineStat(text: string): { busy: number; total: number } {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return { busy: Number.NaN, total: Number.NaN };
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

let ticksPerSecond: number | undefined;
export function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

export function processTicks(pid: number | undefined): number {
  try {
    return pid === undefined ? Number.NaN : parseProcessStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return Number.NaN;
  }
}

export function machineTicks(): { busy: number; total: number } {
  try {
    return parseMachineStat(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}
