/**
 * The account CLI (docs/accounts.md, docs/operations.md): runs one command of the registry in commands.ts.
 * Prints JSON lines on stdout on success (one per record); on failure one `{"error": …}` line on
 * stderr and exit code 1. Nothing else is written to stdout, so scripts can parse it. Stderr also says which
 * database was used (`{"database": …}`, and `{"warning": …}` when no `npm start` serves it: database-note.ts).
 */
import '../local/quiet-observability.ts';
import { localEngines } from '../local/engine-record.ts';
import { CommandError, parseCommandLine, UsageError } from './command.ts';
import { COMMANDS } from './commands.ts';
import { databaseNote } from './database-note.ts';
import { type Connection, chooseTarget, connectTarget, describeTarget, type Target } from './target.ts';

function errorMessage(error: unknown, target: Target | undefined): string {
  if (error instanceof UsageError || error instanceof CommandError) return error.message;
  const name = (error as { name?: string } | null)?.name ?? '';
  const where = target ? describeTarget(target) : 'the database';
  if (name === 'ResourceNotFoundException') return `The ${where} does not exist.`;
  if (
    name === 'CredentialsProviderError' ||
    name === 'UnrecognizedClientException' ||
    name === 'ExpiredTokenException'
  ) {
    return `AWS credentials were refused for the ${where}: ${(error as Error).message}`;
  }
  return `Failed on the ${where}: ${(error as Error).message ?? String(error)}`;
}

function exit(stream: NodeJS.WriteStream, text: string, code: number): void {
  // Exit explicitly: the SDK's keep-alive sockets would otherwise hold the process open.
  stream.write(text === '' ? '' : `${text}\n`, () => process.exit(code));
}

async function main(argv: string[]): Promise<void> {
  let target: Target | undefined;
  let connection: Connection | undefined;
  const stop = async () => {
    await connection?.close().catch(() => undefined);
    process.exit(130);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  try {
    const parsed = parseCommandLine(COMMANDS, argv);
    if (parsed.kind === 'help') return exit(process.stdout, parsed.text, 0);
    target = chooseTarget();
    connection = await connectTarget(target);
    for (const [name, text] of Object.entries(databaseNote(target, connection, localEngines())))
      process.stderr.write(`${JSON.stringify({ [name]: text })}\n`);
    await parsed.command.run(parsed.input, { line: (record) => process.stdout.write(`${JSON.stringify(record)}\n`) });
    await connection.close();
    connection = undefined;
    exit(process.stdout, '', 0);
  } catch (error) {
    await connection?.close().catch(() => undefined);
    exit(process.stderr, JSON.stringify({ error: errorMessage(error, target) }), 1);
  }
}

void main(process.argv.slice(2));
