/**
 * Every CLI command, in `--help` order. To add commands, export an array of `defineCommand(...)`
 * entries from a file beside this one, import it here and spread it into COMMANDS, then add one npm
 * script per command (`"x:y": "tsx infra/cli/main.ts x:y"`).
 */
import { accountCommands } from './account-commands.ts';
import type { Command } from './command.ts';
import { dataCommands } from './data-commands.ts';
import { keyCommands } from './key-commands.ts';
import { mailCommands } from './mail-commands.ts';
import { paystackCommands } from './paystack-commands.ts';
import { webhookCommands } from './webhook-commands.ts';

export const COMMANDS: readonly Command[] = [
  ...accountCommands,
  ...keyCommands,
  ...webhookCommands,
  ...mailCommands,
  ...paystackCommands,
  ...dataCommands,
];
