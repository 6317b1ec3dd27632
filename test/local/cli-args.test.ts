import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandHelp, type ParsedCommandLine, parseCommandLine, UsageError } from '../../infra/cli/command.ts';
import { COMMANDS } from '../../infra/cli/commands.ts';
import { printedTime } from '../../infra/cli/printed-time.ts';
import { chooseTarget } from '../../infra/cli/target.ts';

const KEY = `sk_${'a1B2'.repeat(10)}`;
const KEY_ID = `key_${'a1B2'.repeat(4)}`;

const parseCommand = (argv: string[]) => parseCommandLine(COMMANDS, argv);
const inputOf = (parsed: ParsedCommandLine) => {
  if (parsed.kind !== 'run') throw new Error(`expected a command, got help`);
  return { command: parsed.command.name, ...(parsed.input as object) };
};
const parse = (argv: string[]) => inputOf(parseCommand(argv));

describe('parseCommandLine', () => {
  it('parses account:create with its options', () => {
    expect(parse(['account:create', '--name', ' Acme '])).toEqual({ command: 'account:create', name: 'Acme' });
    expect(
      parse([
        'account:create',
        '--name=Acme Ltd',
        '--currency',
        'usd',
        '--time-zone',
        'Europe/London',
        '--tokenization-enabled',
      ]),
    ).toEqual({
      command: 'account:create',
      name: 'Acme Ltd',
      currency: 'USD',
      timeZone: 'Europe/London',
      tokenizationEnabled: true,
    });
  });

  it('parses the key commands', () => {
    expect(parse(['key:create', '--company-id', '12'])).toEqual({
      command: 'key:create',
      companyId: 12,
      label: undefined,
      days: undefined,
    });
    expect(parse(['key:create', '--company-id', '12', '--label', ' rotation ', '--expires-in-days', '30'])).toEqual({
      command: 'key:create',
      companyId: 12,
      label: 'rotation',
      days: 30,
    });
    expect(parse(['key:revoke', '--key', KEY])).toEqual({ command: 'key:revoke', key: KEY });
    expect(parse(['key:revoke', '--key-id', KEY_ID])).toEqual({ command: 'key:revoke', keyId: KEY_ID });
    expect(parse(['key:list', '--company-id', '3'])).toEqual({ command: 'key:list', companyId: 3 });
  });

  it('parses the account administration commands', () => {
    expect(parse(['account:list'])).toEqual({ command: 'account:list' });
    expect(parse(['account:disable', '--company-id', '7'])).toEqual({ command: 'account:disable', companyId: 7 });
    expect(parse(['account:enable', '--company-id', '7'])).toEqual({ command: 'account:enable', companyId: 7 });
  });

  it("treats no command as a request for the overview, and --help after a command as that command's help", () => {
    for (const argv of [[], ['--help'], ['-h']]) {
      const parsed = parseCommand(argv);
      expect(parsed.kind).toBe('help');
      for (const command of COMMANDS) expect(parsed.kind === 'help' && parsed.text).toContain(command.name);
    }
    for (const command of COMMANDS) {
      // Even with missing or invalid options, --help answers.
      expect(parseCommand([command.name, '--company-id', 'x', '--help'])).toEqual({
        kind: 'help',
        text: commandHelp(command),
      });
      const help = commandHelp(command);
      expect(help).toContain(`npm run --silent ${command.name}`);
      for (const option of Object.keys(command.options)) expect(help).toContain(`--${option}`);
    }
  });

  it('has an npm script per command, running that command (what `npm run --silent <command>` runs)', () => {
    const scripts = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')).scripts;
    for (const command of COMMANDS)
      expect(scripts[command.name], command.name).toBe(`tsx infra/cli/main.ts ${command.name}`);
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
    [
      ['key:create', '--company-id', '1', '--expires-in-days', '0'],
      /--expires-in-days must be a positive integer up to 3650/,
    ],
    [['key:create', '--company-id', '1', '--expires-in-days', '3651'], /--expires-in-days/],
    [['key:create', '--company-id', '1', '--label', 'x'.repeat(101)], /--label/],
    [['key:create', '--company-id', '1', '--label', 'a\nb'], /--label/],
    [['key:revoke', '--key', 'sk_short'], /--key must be a secret key/],
    [['key:revoke', '--key-id', 'key_short'], /--key-id must be a key id/],
    [['key:revoke'], /exactly one of --key-id and --key/],
    [['key:revoke', '--key', KEY, '--key-id', KEY_ID], /exactly one of --key-id and --key/],
    [['key:list'], /--company-id is required/],
    [['account:disable', '--company-id', '-1'], /--company-id/],
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
    for (const credentials of [
      { AWS_ACCESS_KEY_ID: 'x' },
      { AWS_PROFILE: 'dev' },
      { AWS_CONTAINER_CREDENTIALS_FULL_URI: 'http://x' },
    ]) {
      expect(chooseTarget({ TABLE_NAME: 'invoicing-dev-Table', ...credentials })).toEqual({
        kind: 'aws',
        tableName: 'invoicing-dev-Table',
      });
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

describe('printedTime', () => {
  it('prints every time as UTC YYYY-MM-DD HH:MM:SS: an ISO 8601 one converted, one already so (or none) kept', () => {
    expect(printedTime('2030-01-02T03:04:05.678Z')).toBe('2030-01-02 03:04:05');
    expect(printedTime('2030-01-02T04:04:05+01:00')).toBe('2030-01-02 03:04:05');
    expect(printedTime('2030-01-02 03:04:05')).toBe('2030-01-02 03:04:05');
    expect(printedTime(null)).toBeNull();
  });
});
