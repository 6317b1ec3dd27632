import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLASS_ARCHIVE_FILES, javaLaunch, LOOPBACK_CLASSES } from '../../infra/local/dynamodb-local-launch.ts';

describe('javaLaunch', () => {
  it('launches from the distribution when no class archive is named', () => {
    // Act
    const launch = javaLaunch({});

    // Assess
    expect(launch.classpath).toEqual([join(launch.home, 'DynamoDBLocal.jar'), LOOPBACK_CLASSES]);
    expect(launch.jvmOptions).toEqual([]);
  });

  it('maps the classes from the named archive, with the classpath it was built with', () => {
    // Prepare
    const directory = mkdtempSync(join(tmpdir(), 'class-archive-'));
    writeFileSync(join(directory, CLASS_ARCHIVE_FILES.archive), '');

    // Act
    const launch = javaLaunch({ DYNAMODB_LOCAL_CLASS_ARCHIVE: directory });

    // Assess
    expect(launch.classpath).toEqual([join(directory, 'DynamoDBLocal.jar'), join(directory, 'loopback.jar')]);
    expect(launch.jvmOptions).toEqual([`-XX:SharedArchiveFile=${join(directory, 'dynamodb-local.jsa')}`]);
  });

  it('launches from the distribution when the named directory has no finished archive', () => {
    // Prepare
    const directory = mkdtempSync(join(tmpdir(), 'class-archive-'));

    // Act
    const launch = javaLaunch({ DYNAMODB_LOCAL_CLASS_ARCHIVE: directory });

    // Assess
    expect(launch.jvmOptions).toEqual([]);
  });

  it('takes a relative directory from the working directory, since Java starts elsewhere', () => {
    // Prepare
    const directory = mkdtempSync(join(tmpdir(), 'class-archive-'));
    writeFileSync(join(directory, CLASS_ARCHIVE_FILES.archive), '');

    // Act
    const launch = javaLaunch({ DYNAMODB_LOCAL_CLASS_ARCHIVE: relative(process.cwd(), directory) });

    // Assess
    expect(launch.jvmOptions).toEqual([`-XX:SharedArchiveFile=${join(directory, 'dynamodb-local.jsa')}`]);
    expect(launch.classpath).toEqual([join(directory, 'DynamoDBLocal.jar'), join(directory, 'loopback.jar')]);
  });
});
