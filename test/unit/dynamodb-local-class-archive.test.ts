import { describe, expect, it } from 'vitest';
import { jarsOnlyManifest } from '../../infra/local/dynamodb-local-class-archive.ts';

// DynamoDB Local's manifest names its own directory, a file and native libraries beside its jars; a class-data
// sharing archive can only be built from jars (infra/local/dynamodb-local-class-archive.ts).
const MANIFEST = [
  'Manifest-Version: 1.0',
  'Main-Class: software.amazon.dynamodb.services.local.main.ServerRunner',
  'Class-Path: . log4j2.xml DynamoDBLocal_lib/Apache-HttpComponents-HttpC',
  ' lient-4.5.x.jar DynamoDBLocal_lib/libsqlite4java-linux-amd64.so Dynam',
  ' oDBLocal_lib/sqlite4java.jar',
  'Bundle-Name: DynamoDB Local',
  '',
].join('\r\n');

const unwrapped = (manifest: string) => manifest.replace(/\r\n /g, '').split('\r\n');

describe('jarsOnlyManifest', () => {
  it('keeps only the jars of the Class-Path, in their order', () => {
    // Act
    const lines = unwrapped(jarsOnlyManifest(MANIFEST));

    // Assess
    expect(lines).toContain(
      'Class-Path: DynamoDBLocal_lib/Apache-HttpComponents-HttpClient-4.5.x.jar DynamoDBLocal_lib/sqlite4java.jar',
    );
  });

  it('keeps the other attributes and wraps every line within 72 bytes', () => {
    // Act
    const manifest = jarsOnlyManifest(MANIFEST);

    // Assess
    expect(unwrapped(manifest)).toEqual(
      expect.arrayContaining([
        'Manifest-Version: 1.0',
        'Main-Class: software.amazon.dynamodb.services.local.main.ServerRunner',
        'Bundle-Name: DynamoDB Local',
      ]),
    );
    for (const line of manifest.split('\r\n')) expect(Buffer.byteLength(`${line}\r\n`)).toBeLessThanOrEqual(72);
  });
});
