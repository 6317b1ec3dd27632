/**
 * A class-data sharing archive for DynamoDB Local's JVM, for `npm test` (scripts/test.ts; docs/decisions.md "How the
 * suite runs"). The suite starts about fifty engines (its workers', each `npm start`'s, the CLI's); each loaded and
 * verified about 6,700 classes from some sixty jars. Mapped from one archive, an engine answers in about half the time
 * and CPU (here 2.7 → 1.1 s to its first answer, 3.8 → 2.2 s of CPU until it has served a warm-up).
 *
 * Built once per DynamoDB Local release and launcher class in node_modules/.cache (the archive records the classpath
 * it was built with, so it is built where it is used): the classes a warmed engine loads
 * (-XX:DumpLoadedClassList), then `java -Xshare:dump`. The JVM archives classes from jars only, and DynamoDB Local's
 * jar names its own directory and non-jar files in its manifest's Class-Path, so the archive's directory holds a
 * copy of that jar whose Class-Path
 * keeps only the jars (they are reached through a link to the distribution's DynamoDBLocal_lib), and the loopback
 * launcher in a jar. One builder at a time: `npm test` builds it beside its first pass.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { startDynamoDbLocal } from './dynamodb-local.ts';
import {
  archiveClasspath,
  CLASS_ARCHIVE_FILES,
  distribution,
  type JavaLaunch,
  LOOPBACK_CLASSES,
} from './dynamodb-local-launch.ts';
import { warmUp } from './dynamodb-local-warm-up.ts';

const CACHE = resolve(import.meta.dirname, '../../node_modules/.cache/dynamodb-local-class-archive');
const MANIFEST = 'META-INF/MANIFEST.MF';
const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal.class';
/** A manifest line's longest length in bytes, continuation lines starting with one space (JAR File Specification). */
const MANIFEST_LINE_BYTES = 72;

/** The manifest with its Class-Path reduced to the jars it names. */
export function jarsOnlyManifest(manifest: string): string {
  const lines = manifest.replace(/\r?\n /g, '').split(/\r?\n/);
  const rewritten = lines.map((line) => {
    if (!line.startsWith('Class-Path:')) return line;
    const jars = line
      .slice('Class-Path:'.length)
      .trim()
      .split(/\s+/)
      .filter((entry) => entry.endsWith('.jar'));
    return `Class-Path: ${jars.join(' ')}`;
  });
  return rewritten.flatMap(wrapManifestLine).join('\r\n');
}

function wrapManifestLine(line: string): string[] {
  const width = MANIFEST_LINE_BYTES - 2; // ASCII here; room for the CRLF
  const wrapped = [line.slice(0, width)];
  for (let at = width; at < line.length; at += width - 1) wrapped.push(` ${line.slice(at, at + width - 1)}`);
  return wrapped;
}

function writeJars(directory: string, home: string): void {
  const entries = unzipSync(readFileSync(join(home, 'DynamoDBLocal.jar')));
  entries[MANIFEST] = strToU8(jarsOnlyManifest(strFromU8(entries[MANIFEST]!)));
  writeFileSync(join(directory, CLASS_ARCHIVE_FILES.jar), zipSync(entries, { level: 1 }));
  const launcher = { [LAUNCHER_CLASS]: readFileSync(join(LOOPBACK_CLASSES, LAUNCHER_CLASS)) };
  writeFileSync(join(directory, CLASS_ARCHIVE_FILES.launcher), zipSync(launcher));
  symlinkSync(join(home, 'DynamoDBLocal_lib'), join(directory, 'DynamoDBLocal_lib'));
}

/** Runs a warmed engine that lists the classes it loads, then dumps the archive of those classes. */
async function dumpArchive(directory: string, home: string): Promise<void> {
  const classpath = archiveClasspath(directory);
  const classList = join(directory, CLASS_ARCHIVE_FILES.classList);
  // C1 only, as the tests' engines (vitest.config.ts): this engine serves a warm-up and stops.
  const jvmOptions = ['-XX:TieredStopAtLevel=1', `-XX:DumpLoadedClassList=${classList}`];
  const launch: JavaLaunch = { home, classpath, jvmOptions };
  const engine = await startDynamoDbLocal({ launch });
  try {
    await warmUp(engine.endpoint);
  } finally {
    await engine.stop();
  }
  const building = join(directory, `${CLASS_ARCHIVE_FILES.archive}.building`);
  const dump = ['-Xshare:dump', `-XX:SharedClassListFile=${classList}`, `-XX:SharedArchiveFile=${building}`];
  await promisify(execFile)('java', [...dump, '-cp', classpath.join(delimiter)], { cwd: home });
  renameSync(building, join(directory, CLASS_ARCHIVE_FILES.archive)); // the archive appears whole or not at all
}

/**
 * Where the archive of this DynamoDB Local release and this launcher is (or will be) built: the archive holds a copy
 * of the launcher's class, so a changed launcher gets an archive of its own.
 */
export function classArchiveDirectory(): string {
  const launcher = readFileSync(join(LOOPBACK_CLASSES, LAUNCHER_CLASS));
  const version = createHash('sha256').update(launcher).digest('hex').slice(0, 12);
  return join(CACHE, `${basename(distribution())}-launcher-${version}`);
}

/**
 * Builds this DynamoDB Local release's archive in `classArchiveDirectory()` unless it is there; false (engines
 * start without it) if it cannot be built, with the reason on stderr. Engines started meanwhile with
 * DYNAMODB_LOCAL_CLASS_ARCHIVE set to that directory start without it: the archive file appears whole, last.
 */
export async function ensureClassArchive(): Promise<boolean> {
  const home = distribution();
  const directory = classArchiveDirectory();
  if (existsSync(join(directory, CLASS_ARCHIVE_FILES.archive))) return true;
  try {
    rmSync(directory, { recursive: true, force: true }); // an earlier build that did not finish
    mkdirSync(directory, { recursive: true });
    writeJars(directory, home);
    await dumpArchive(directory, home);
    return true;
  } catch (error) {
    console.error(`DynamoDB Local's class archive was not built (engines start without it): ${String(error)}`);
    return false;
  }
}
