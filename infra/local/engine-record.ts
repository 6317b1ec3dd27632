/**
 * One DynamoDB Local per DATA_DIR (docs/decisions.md "One DynamoDB Local per DATA_DIR"). Whoever starts
 * DynamoDB Local on a data directory (`npm start` or the CLI) records it in `<dynamodb dir>/engine.json`:
 * the Java pid, its port and the pid of the process that owns it. Others read the record instead of
 * trusting their own DYNAMODB_PORT: the CLI uses the running engine whatever port it listens on, and
 * `npm start` stops an engine whose owner was killed (SIGKILL of node alone leaves Java running) before
 * starting its own, so a restart after any kill needs no manual repair.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface EngineRecord {
  javaPid: number;
  port: number;
  ownerPid: number;
  owner: 'npm start' | 'cli';
}

const recordFile = (dynamodbDir: string) => join(dynamodbDir, 'engine.json');

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when `pid` is a DynamoDB Local whose command line names `dynamodbDir` (not a recycled pid). */
function isEngineOf(pid: number, dynamodbDir: string): boolean {
  try {
    const args = execFileSync('ps', ['-p', String(pid), '-o', 'args='], { encoding: 'utf8' });
    return args.includes('DynamoDBLocal.jar') && args.includes(dynamodbDir);
  } catch {
    return false; // no such process
  }
}

/** The engine serving `dynamodbDir`, if its record names a DynamoDB Local that still runs there. */
export function runningEngine(dynamodbDir: string): EngineRecord | undefined {
  let record: EngineRecord;
  try {
    record = JSON.parse(readFileSync(recordFile(dynamodbDir), 'utf8')) as EngineRecord;
  } catch {
    return undefined;
  }
  return isEngineOf(record.javaPid, dynamodbDir) ? record : undefined;
}

export function writeEngineRecord(dynamodbDir: string, record: EngineRecord): void {
  mkdirSync(dynamodbDir, { recursive: true });
  const temporary = `${recordFile(dynamodbDir)}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(record));
  renameSync(temporary, recordFile(dynamodbDir));
}

/** Removes the record if it is still this owner's (a later owner's record is left alone). */
export function removeEngineRecord(dynamodbDir: string, ownerPid: number): void {
  try {
    const record = JSON.parse(readFileSync(recordFile(dynamodbDir), 'utf8')) as EngineRecord;
    if (record.ownerPid === ownerPid) rmSync(recordFile(dynamodbDir), { force: true });
  } catch {
    // no record
  }
}

/** Stops an engine whose owner is gone: SIGTERM, then SIGKILL after `graceMs`. Resolves once it has exited. */
export async function stopOrphanedEngine(record: EngineRecord, graceMs = 5_000): Promise<void> {
  process.kill(record.javaPid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (processAlive(record.javaPid)) {
    if (Date.now() > deadline) process.kill(record.javaPid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A DynamoDB Local process on this machine: its port, and its data directory (none when in memory). */
export interface LocalEngine {
  javaPid: number;
  port: number;
  dynamodbDir: string | undefined;
  /** The live `npm start` that owns it (its engine record says so and its pid runs), if any. */
  npmStartPid: number | undefined;
}

/** The command line of `pid` as its arguments (Linux's /proc keeps paths with spaces whole; else `ps`). */
function argumentsOf(pid: number, psArgs: string): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return psArgs.split(/\s+/);
  }
}

function engineFrom(pid: number, args: string[]): LocalEngine | undefined {
  const option = (flag: string) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args[at + 1];
  };
  const port = Number(option('-port'));
  if (!Number.isInteger(port)) return undefined;
  const dynamodbDir = option('-dbPath');
  const record = dynamodbDir ? runningEngine(dynamodbDir) : undefined;
  const owned = record?.javaPid === pid && record.owner === 'npm start' && processAlive(record.ownerPid);
  return { javaPid: pid, port, dynamodbDir, npmStartPid: owned ? record.ownerPid : undefined };
}

/** Every DynamoDB Local running on this machine (the CLI says which one it used and who else serves one). */
export function localEngines(): LocalEngine[] {
  let listing: string;
  try {
    listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  return listing.split('\n').flatMap((line) => {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!match || !/DynamoDBLocal\.jar|LoopbackDynamoDbLocal/.test(match[2]!)) return [];
    const pid = Number(match[1]);
    const engine = engineFrom(pid, argumentsOf(pid, match[2]!));
    return engine ? [engine] : [];
  });
}
