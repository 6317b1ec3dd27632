/**
 * The account CLI (SPEC §2, §10): `account:create`, `key:create`, `key:revoke`.
 * Prints exactly one JSON line on stdout on success; on failure one `{"error": …}` line on stderr
 * and exit code 1. Nothing else is written to stdout, so scripts can parse it.
 */
import { createAccount, createKey, revokeKey } from '#shared/store/accounts';
import { parseCommand, USAGE, UsageError, type CliCommand } from './args';
import { chooseTarget, connectTarget, describeTarget, type Target } from './target';
import { isWebhookCommand, runWebhookCommand, WebhookCliError } from './webhook-commands';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** A failure the user can act on; its message is printed as is. */
class CommandError extends Error {}

async function run(command: Exclude<CliCommand, { command: 'help' }>, target: Target): Promise<Record<string, unknown> | Record<string, unknown>[]> {
  if (isWebhookCommand(command.command)) return runWebhookCommand(command as never, { local: target.kind !== 'aws' });
  switch (command.command) {
    case 'account:create': {
      const { account, secretKey } = await createAccount({
        name: command.name,
        ...(command.currency !== undefined ? { currency: command.currency } : {}),
        ...(command.timeZone !== undefined ? { timeZone: command.timeZone } : {}),
        ...(command.tokenizationEnabled !== undefined ? { tokenizationEnabled: command.tokenizationEnabled } : {}),
      });
      return { company_id: account.companyId, secret_key: secretKey };
    }
    case 'key:create': {
      const secretKey = await createKey(command.companyId);
      if (secretKey === undefined) throw new CommandError(`No account with company_id ${command.companyId}.`);
      return { company_id: command.companyId, secret_key: secretKey };
    }
    case 'key:revoke': {
      const companyId = await revokeKey(command.key);
      if (companyId === undefined) throw new CommandError('No such secret key.');
      return { company_id: companyId, revoked: true };
    }
  }
}

function errorMessage(error: unknown, target: Target | undefined): string {
  if (error instanceof UsageError || error instanceof CommandError || error instanceof WebhookCliError) return error.message;
  const name = (error as { name?: string } | null)?.name ?? '';
  const where = target ? describeTarget(target) : 'the database';
  if (name === 'ResourceNotFoundException') return `The ${where} does not exist.`;
  if (name === 'CredentialsProviderError' || name === 'UnrecognizedClientException' || name === 'ExpiredTokenException') {
    return `AWS credentials were refused for the ${where}: ${(error as Error).message}`;
  }
  return `Failed on the ${where}: ${(error as Error).message ?? String(error)}`;
}

function exit(stream: NodeJS.WriteStream, line: string, code: number): void {
  // Exit explicitly: the SDK's keep-alive sockets would otherwise hold the process open.
  stream.write(`${line}\n`, () => process.exit(code));
}

async function main(argv: string[]): Promise<void> {
  let target: Target | undefined;
  let connection: { close(): Promise<void> } | undefined;
  const stop = async () => {
    await connection?.close().catch(() => undefined);
    process.exit(130);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  try {
    const command = parseCommand(argv);
    if (command.command === 'help') return exit(process.stdout, command.usage ?? USAGE, 0);
    target = chooseTarget();
    connection = await connectTarget(target);
    const result = await run(command, target);
    await connection.close();
    connection = undefined;
    const lines = Array.isArray(result) ? result.map((line) => JSON.stringify(line)).join('\n') : JSON.stringify(result);
    if (lines === '') return process.exit(0);
    exit(process.stdout, lines, 0);
  } catch (error) {
    await connection?.close().catch(() => undefined);
    exit(process.stderr, JSON.stringify({ error: errorMessage(error, target) }), 1);
  }
}

void main(process.argv.slice(2));
