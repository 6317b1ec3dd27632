import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../../infra/cli/args';
import { chooseTarget } from '../../infra/cli/target';

const KEY = `sk_${'a1B2'.repeat(10)}`;

describe('parseCommand', () => {
  it('parses account:create with its options', () => {
    expect(parseCommand(['account:create', '--name', ' Acme '])).toEqual({ command: 'account:create', name: 'Acme' });
    expect(
      parseCommand(['account:create', '--name=Acme Ltd', '--currency', 'usd', '--time-zone', 'Europe/London', '--tokenization-enabled']),
    ).toEqual({ command: 'account:create', name: 'Acme Ltd', currency: 'USD', timeZone: 'Europe/London', tokenizationEnabled: true });
  });

  it('parses key:create and key:revoke', () => {
    expect(parseCommand(['key:create', '--company-id', '12'])).toEqual({ command: 'key:create', companyId: 12 });
    expect(parseCommand(['key:revoke', '--key', KEY])).toEqual({ command: 'key:revoke', key: KEY });
  });

  it('treats no command as a request for help', () => {
    expect(parseCommand([])).toEqual({ command: 'help' });
    expect(parseCommand(['--help'])).toEqual({ command: 'help' });
  });

  it.each([
    [['account:create'], /--name is required/],
    [['account:create', '--name', '  '], /--name is required/],
    [['account:create', '--name', 'A', '--currency', 'NAIRA'], /--currency/],
    [['account:create', '--name', 'A', '--time-zone', 'Mars/Olympus'], /--time-zone/],
    [['account:create', '--name', 'A', '--bogus'], /Unknown option '--bogus'/],
    [['key:create'], /--company-id is required/],
    [['key:create', '--company-id', '0'], /positive integer/],
    [['key:create', '--company-id', '1.5'], /positive integer/],
    [['key:revoke', '--key', 'sk_short'], /--key must be a secret key/],
    [['key:delete'], /Unknown command/],
    [['account:create', 'Acme'], /Unexpected argument/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });
});

describe('chooseTarget', () => {
  it('uses DYNAMODB_ENDPOINT when set', () => {
    expect(chooseTarget({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', TABLE_NAME: 't', AWS_PROFILE: 'p' })).toEqual({
      kind: 'endpoint',
      endpoint: 'http://127.0.0.1:9',
      tableName: 't',
    });
  });

  it('uses the deployed table when TABLE_NAME and AWS credentials are set', () => {
    for (const credentials of [{ AWS_ACCESS_KEY_ID: 'x' }, { AWS_PROFILE: 'dev' }, { AWS_CONTAINER_CREDENTIALS_FULL_URI: 'http://x' }]) {
      expect(chooseTarget({ TABLE_NAME: 'invoicing-dev-Table', ...credentials })).toEqual({ kind: 'aws', tableName: 'invoicing-dev-Table' });
    }
  });

  it('falls back to the local database of npm start', () => {
    expect(chooseTarget({ DATA_DIR: '/tmp/x', DYNAMODB_PORT: '8123' })).toEqual({
      kind: 'local',
      endpoint: 'http://127.0.0.1:8123',
      port: 8123,
      dynamodbDir: '/tmp/x/dynamodb',
      tableName: 'invoicing-local',
    });
    expect(chooseTarget({ TABLE_NAME: 'mine' })).toMatchObject({ kind: 'local', port: 8000, tableName: 'mine' });
  });
});
