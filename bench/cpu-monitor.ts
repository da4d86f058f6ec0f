import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux). */
export const TICKS_PER_SECOND = 100;

function machineBusyTicks(): number {
  // cpu  user nice system idle iowait irq softirq steal ...
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return user + nice + system + irq + softirq + (steal ?? 0);
}

/** CPU time a process has used (all its threads, user and system), in clock ticks. */
export function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name in parentheses: state is field 3; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The processes whose command line `matches` (e.g. the PostgreSQL backends serving the bench database). */
function pidsMatching(matches: (commandLine: string) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (matches(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * How busy the machine was with work other than the benchmark's own
 * processes (this one, the service, the ceiling, and the database server
 * processes working for them) during a measurement, in cores. On a shared
 * machine a measurement taken beside other work is not comparable: the
 * report flags it.
 */
export class CpuMonitor {
  private startTicks = 0;
  private startedAt = 0;
  /** CPU ticks of each own process at start(). */
  private startOwn = new Map<number, number>();

  constructor(
    private readonly pids: () => readonly number[],
    /** Other processes that work for the benchmark, by command line. */
    private readonly alsoOwn?: (commandLine: string) => boolean,
  ) {}

  static available(): boolean {
    try {
      machineBusyTicks();
      return true;
    } catch {
      return false;
    }
  }

  start(): void {
    const pids = [process.pid, ...this.pids(), ...(this.alsoOwn ? pidsMatching(this.alsoOwn) : [])];
    this.startTicks = machineBusyTicks();
    this.startOwn = new Map(pids.map((pid) => [pid, processTicks(pid)]));
    this.startedAt = Date.now();
  }

  /**
   * Cores used by other work since `start()`. Own processes that appeared
   * meanwhile (e.g. new pool connections' backends) count in full.
   */
  foreignCores(): number {
    const seconds = Math.max((Date.now() - this.startedAt) / 1000, 0.001);
    const busy = machineBusyTicks() - this.startTicks;
    const now = new Set([process.pid, ...this.pids(), ...(this.alsoOwn ? pidsMatching(this.alsoOwn) : [])]);
    for (const pid of this.startOwn.keys()) now.add(pid);
    let own = 0;
    for (const pid of now) {
      const ticks = processTicks(pid);
      // a process that ended meanwhile (an idle pool connection's backend) reads 0: its last ticks are unknown, so it counts as idle
      if (ticks > 0) own += ticks - (this.startOwn.get(pid) ?? 0);
    }
    return Math.max(0, busy - own) / TICKS_PER_SECOND / seconds;
  }
}
