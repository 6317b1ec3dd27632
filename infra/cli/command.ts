/**
 * The CLI's command registry: each command is one `defineCommand({...})` entry (name, summary,
 * options with their help text, an `input` step that validates the options, and `run`). The runner
 * (main.ts) parses argv against the registry in commands.ts, answers `--help` from the same entries,
 * and prints every failure as one `{"error": …}` line.
 */
import { parseArgs } from 'node:util';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** One line for `--help`. */
  description: string;
  /** Shown after the option name in the usage line, e.g. `N` for `--company-id N`. */
  placeholder?: string;
  /** Shown as required in the usage line (the `input` step still checks it). */
  required?: boolean;
}

export type OptionSpecs = Record<string, OptionSpec>;

/** Parsed option values: strings for string options, true for boolean flags, undefined when absent. */
export type OptionValues<O extends OptionSpecs> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string;
};

/** Where a command writes its result: one JSON object per line on stdout. */
export interface Output {
  line(record: Record<string, unknown>): void;
}

export interface CommandSpec<O extends OptionSpecs, I> {
  /** As typed after `npm run --silent`, e.g. `key:create`; also the npm script's name. */
  name: string;
  /** One sentence for the command list and the top of `--help`. */
  summary: string;
  options: O;
  /** What the command prints, for `--help`. */
  prints: string;
  /** Validates the options (throws UsageError); runs without a database. */
  input(values: OptionValues<O>): I;
  /** Does the work against the connected table; throws CommandError for a failure the user can act on. */
  run(input: I, output: Output): Promise<void>;
}

/** A registry entry, with its option and input types erased. */
export interface Command {
  name: string;
  summary: string;
  options: OptionSpecs;
  prints: string;
  input(values: Record<string, string | boolean | undefined>): unknown;
  run(input: unknown, output: Output): Promise<void>;
}

export function defineCommand<O extends OptionSpecs, I>(spec: CommandSpec<O, I>): Command {
  return spec as unknown as Command;
}

/** A problem with the command line (exit code 1, nothing on stdout). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure the user can act on; its message is printed as is. */
export class CommandError extends Error {
  override name = 'CommandError';
}

export type ParsedCommandLine = { kind: 'help'; text: string } | { kind: 'run'; command: Command; input: unknown };

const HELP_FLAGS = new Set(['--help', '-h', 'help']);

/** Parses `argv` (without node and the script), e.g. `['key:create', '--company-id', '1']`. */
export function parseCommandLine(commands: readonly Command[], argv: readonly string[]): ParsedCommandLine {
  const [name, ...rest] = argv;
  if (name === undefined || HELP_FLAGS.has(name)) return { kind: 'help', text: overview(commands) };
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    throw new UsageError(`Unknown command "${name}". Commands: ${commands.map((c) => c.name).join(', ')}.`);
  }
  if (rest.includes('--help') || rest.includes('-h')) return { kind: 'help', text: commandHelp(command) };
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(
      Object.entries(command.options).map(([option, spec]) => [option, { type: spec.type }]),
    );
    values = parseArgs({ args: joinDashValues(command, rest), options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    // Node's messages go on to explain "--" escaping, which is no help here.
    throw new UsageError(`${(error as Error).message.split('. ')[0]!.replace(/\.$/, '')}. See --help.`);
  }
  return { kind: 'run', command, input: command.input(values) };
}

/**
 * `--reminders "-3,0,7,14"`: a string option's value may start with "-" (node's parseArgs would refuse it as
 * ambiguous); it is passed on as `--reminders=-3,0,7,14`. A value starting with "--" still needs the `=` form.
 */
function joinDashValues(command: Command, args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const option = arg.startsWith('--') ? command.options[arg.slice(2)] : undefined;
    if (option?.type === 'string' && next !== undefined && /^-(?!-)/.test(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}

function usageLine(command: Command): string {
  const options = Object.entries(command.options).map(([option, spec]) => {
    const text = spec.type === 'boolean' ? `--${option}` : `--${option} ${spec.placeholder ?? 'VALUE'}`;
    return spec.required ? text : `[${text}]`;
  });
  return `npm run --silent ${command.name} -- ${options.join(' ')}`.trimEnd();
}

/** `--help` of one command. */
export function commandHelp(command: Command): string {
  const rows = Object.entries(command.options).map(([option, spec]) => {
    const flag = spec.type === 'boolean' ? `--${option}` : `--${option} ${spec.placeholder ?? 'VALUE'}`;
    return `  ${flag.padEnd(28)} ${spec.description}${spec.required ? ' (required)' : ''}`;
  });
  return [
    `${command.name}: ${command.summary}`,
    '',
    `Usage: ${usageLine(command)}`,
    '',
    'Options:',
    ...rows,
    `  ${'--help'.padEnd(28)} show this help`,
    '',
    `Prints ${command.prints}`,
    'Errors print one line {"error":"…"} on stderr and exit with code 1.',
    TARGET_HELP,
  ].join('\n');
}

/** `--help` with no command: every command. */
export function overview(commands: readonly Command[]): string {
  return [
    'Account and key administration for the invoicing API.',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(20)} ${command.summary}`),
    '',
    "Run `npm run --silent <command> -- --help` for a command's options.",
    'Each command prints JSON lines on stdout; errors print one line {"error":"…"} on stderr and exit with code 1.',
    TARGET_HELP,
  ].join('\n');
}

const TARGET_HELP =
  'Database: DYNAMODB_ENDPOINT (+ TABLE_NAME) if set; else TABLE_NAME with AWS credentials (a deployed stage, see docs/operations.md); ' +
  'else the local database of `npm start` (DATA_DIR, DYNAMODB_PORT).';
