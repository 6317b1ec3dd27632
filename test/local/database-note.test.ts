/** What the CLI says on stderr about the database it used (infra/cli/database-note.ts), for each kind of target. */
import { describe, expect, it } from 'vitest';
import { databaseNote } from '../../infra/cli/database-note.ts';
import type { Connection, Target } from '../../infra/cli/target.ts';
import type { LocalEngine } from '../../infra/local/engine-record.ts';

const local = (dataDir: string, port = 8000): Target => ({
  kind: 'local',
  endpoint: `http://127.0.0.1:${port}`,
  port,
  dynamodbDir: `${dataDir}/dynamodb`,
  tableName: 'invoicing-local',
});
const connected = (endpoint: string | undefined, startedHere = false): Connection => ({
  close: async () => {},
  endpoint,
  startedHere,
});
const engine = (port: number, dataDir: string | undefined, npmStartPid?: number): LocalEngine => ({
  javaPid: 100 + port,
  port,
  dynamodbDir: dataDir ? `${dataDir}/dynamodb` : undefined,
  npmStartPid,
});

describe('the database note of the CLI', () => {
  it('names the DATA_DIR and the npm start that serves it, without a warning', () => {
    // Act
    const note = databaseNote(local('/w/.data'), connected('http://127.0.0.1:8000'), [engine(8000, '/w/.data', 42)]);
    // Assess
    expect(note).toEqual({
      database:
        'table invoicing-local at http://127.0.0.1:8000 (DynamoDB Local), data in /w/.data, served by npm start (pid 42)',
    });
  });

  it('warns when the engine was started for the command, and names the DATA_DIR a running npm start uses', () => {
    // Prepare
    const engines = [engine(8001, '/w/other', 42), engine(8000, '/w/.data')];
    // Act
    const note = databaseNote(local('/w/.data'), connected('http://127.0.0.1:8000', true), engines);
    // Assess
    expect(note.database).toBe(
      'table invoicing-local at http://127.0.0.1:8000 (DynamoDB Local), data in /w/.data, started for this command and stopped after it',
    );
    expect(note.warning).toMatch(/^No npm start serves this database: .* refuses a key created here with 401/);
    expect(note.warning).toContain('npm start (pid 42) uses DATA_DIR=/w/other: run the command with that DATA_DIR');
  });

  it('says so when no npm start runs at all', () => {
    const note = databaseNote(local('/w/.data'), connected('http://127.0.0.1:8000', true), [engine(8000, '/w/.data')]);
    expect(note.warning).toMatch(/No npm start is running on this machine\.$/);
  });

  it("says when the engine on DYNAMODB_PORT serves another directory than the command's DATA_DIR", () => {
    const note = databaseNote(local('/w/.data'), connected('http://127.0.0.1:8000'), [engine(8000, '/w/other', 7)]);
    expect(note).toEqual({
      database:
        'table invoicing-local at http://127.0.0.1:8000 (DynamoDB Local), data in /w/other (not DATA_DIR /w/.data), served by npm start (pid 7)',
    });
  });

  it('describes DYNAMODB_ENDPOINT: an in-memory engine warns, another host is only named', () => {
    // Prepare
    const target = (endpoint: string): Target => ({ kind: 'endpoint', endpoint, tableName: 't' });
    // Act
    const inMemory = databaseNote(target('http://localhost:9000'), connected('http://localhost:9000'), [
      engine(9000, undefined),
    ]);
    const remote = databaseNote(target('http://db.internal:8000'), connected('http://db.internal:8000'), []);
    // Assess
    expect(inMemory.database).toBe('table t at http://localhost:9000 (DYNAMODB_ENDPOINT), in memory');
    expect(inMemory.warning).toMatch(/^No npm start serves this database/);
    expect(remote).toEqual({ database: 'table t at http://db.internal:8000 (DYNAMODB_ENDPOINT)' });
  });

  it('names a deployed table and its region, without a warning', () => {
    const previous = process.env.AWS_REGION;
    process.env.AWS_REGION = 'eu-west-1';
    try {
      const note = databaseNote({ kind: 'aws', tableName: 'Invoicing-prod-Table' }, connected(undefined), []);
      expect(note).toEqual({ database: 'table Invoicing-prod-Table on AWS (eu-west-1)' });
    } finally {
      if (previous === undefined) delete process.env.AWS_REGION;
      else process.env.AWS_REGION = previous;
    }
  });
});
