/**
 * Machine and process facts the BE's /metrics reports in Doris's names, read from the same places Doris's
 * BE reads them (be/src/util/system_metrics.cpp): /proc/stat (doris_be_cpu{mode}), /proc/net/dev
 * (doris_be_network_*{device}), /proc/diskstats (doris_be_disk_*{device}), /proc/self/fd and
 * /proc/self/task (doris_be_process_fd_num_used, doris_be_process_thread_num), statfs of the data
 * directories (doris_be_disks_*_capacity{path}). Off Linux, or where /proc is not readable, the
 * per-device series are absent and the process counts read 0; CPU falls back to os.cpus().
 */
import * as fs from 'node:fs';
import * as os from 'node:os';

type PerLabel = Record<string, number>;

function readProc(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Doris's order of the /proc/stat `cpu` fields. */
const CPU_MODES = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'soft_irq', 'steal', 'guest', 'guest_nice'];

/** Cumulative CPU time of the machine per mode (/proc/stat jiffies; os.cpus() milliseconds elsewhere). */
export function cpuTimes(): PerLabel {
  const stat = readProc('/proc/stat');
  const line = stat?.split('\n').find((item) => item.startsWith('cpu '));
  if (line) {
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    return Object.fromEntries(CPU_MODES.map((mode, idx) => [mode, fields[idx] ?? 0]));
  }
  const out: PerLabel = { user: 0, nice: 0, system: 0, idle: 0, irq: 0 };
  for (const cpu of os.cpus()) {
    out.user += cpu.times.user;
    out.nice += cpu.times.nice;
    out.system += cpu.times.sys;
    out.idle += cpu.times.idle;
    out.irq += cpu.times.irq;
  }
  return out;
}

/** /proc/net/dev: per interface, receive and transmit bytes and packets. */
export function networkCounts(): { receiveBytes: PerLabel; sendBytes: PerLabel; receivePackets: PerLabel; sendPackets: PerLabel } {
  const out = { receiveBytes: {} as PerLabel, sendBytes: {} as PerLabel, receivePackets: {} as PerLabel, sendPackets: {} as PerLabel };
  for (const line of (readProc('/proc/net/dev') ?? '').split('\n')) {
    const match = /^\s*([^:\s]+):\s*(.*)$/.exec(line);
    if (!match) continue;
    const fields = match[2].trim().split(/\s+/).map(Number);
    if (fields.length < 10) continue;
    out.receiveBytes[match[1]] = fields[0];
    out.receivePackets[match[1]] = fields[1];
    out.sendBytes[match[1]] = fields[8];
    out.sendPackets[match[1]] = fields[9];
  }
  return out;
}

const SECTOR_BYTES = 512;

/** /proc/diskstats: per block device, completed reads and writes, bytes, and the time spent doing I/O. */
export function diskCounts(): { readsCompleted: PerLabel; writesCompleted: PerLabel; bytesRead: PerLabel; bytesWritten: PerLabel; readTimeMs: PerLabel; writeTimeMs: PerLabel; ioTimeMs: PerLabel } {
  const out = { readsCompleted: {} as PerLabel, writesCompleted: {} as PerLabel, bytesRead: {} as PerLabel, bytesWritten: {} as PerLabel, readTimeMs: {} as PerLabel, writeTimeMs: {} as PerLabel, ioTimeMs: {} as PerLabel };
  for (const line of (readProc('/proc/diskstats') ?? '').split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 14) continue;
    const device = fields[2];
    const num = (idx: number): number => Number(fields[idx]) || 0;
    out.readsCompleted[device] = num(3);
    out.bytesRead[device] = num(5) * SECTOR_BYTES;
    out.readTimeMs[device] = num(6);
    out.writesCompleted[device] = num(7);
    out.bytesWritten[device] = num(9) * SECTOR_BYTES;
    out.writeTimeMs[device] = num(10);
    out.ioTimeMs[device] = num(12);
  }
  return out;
}

/** Entries of a /proc directory (open files, threads), 0 where it cannot be read. */
export function procEntries(dir: '/proc/self/fd' | '/proc/self/task'): number {
  try {
    return fs.readdirSync(dir).length;
  } catch {
    return 0;
  }
}

/** Total and available bytes of the file system under each directory (statfs), by directory. */
export function diskCapacities(dirs: readonly string[]): { total: PerLabel; avail: PerLabel } {
  const out = { total: {} as PerLabel, avail: {} as PerLabel };
  for (const dir of new Set(dirs)) {
    try {
      const stats = fs.statfsSync(dir);
      out.total[dir] = stats.blocks * stats.bsize;
      out.avail[dir] = stats.bavail * stats.bsize;
    } catch {
      // not created yet (a WAL directory before the first async load): no series for it
    }
  }
  return out;
}
