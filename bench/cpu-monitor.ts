import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux). */
const TICKS_PER_SECOND = 100;

function machineBusyTicks(): number {
  // cpu  user nice system idle iowait irq softirq steal ...
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return user + nice + system + irq + softirq + (steal ?? 0);
}

function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name in parentheses: state is field 3; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/**
 * How busy the machine was with work other than the benchmark's own
 * processes (this one, the service, the ceiling) during a measurement, in
 * cores. On a shared machine a measurement taken beside other work is not
 * comparable: the report flags it.
 */
export class CpuMonitor {
  private startTicks = 0;
  private startOwn = 0;
  private startedAt = 0;

  constructor(private readonly pids: () => readonly number[]) {}

  static available(): boolean {
    try {
      machineBusyTicks();
      return true;
    } catch {
      return false;
    }
  }

  start(): void {
    this.startTicks = machineBusyTicks();
    this.startOwn = this.ownTicks();
    this.startedAt = Date.now();
  }

  /** Cores used by other work since `start()`. */
  foreignCores(): number {
    const seconds = Math.max((Date.now() - this.startedAt) / 1000, 0.001);
    const foreign = machineBusyTicks() - this.startTicks - (this.ownTicks() - this.startOwn);
    return Math.max(0, foreign) / TICKS_PER_SECOND / seconds;
  }

  private ownTicks(): number {
    return [process.pid, ...this.pids()].reduce((sum, pid) => sum + processTicks(pid), 0);
  }
}
