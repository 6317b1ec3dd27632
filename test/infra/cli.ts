/** Runs the real CDK CLI the way a new user would, with no AWS credentials. */
import { execFileSync, spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../../infra/stack.ts';

/** The environment minus anything that could supply AWS credentials or a region. */
export function envWithoutAwsCredentials(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && !name.startsWith('CDK_')),
  );
  return {
    ...env,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: '/nonexistent/aws-config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
  };
}

export const commandWorks = (command: string, args: string[]) =>
  spawnSync(command, args, { stdio: 'ignore', timeout: 20_000 }).status === 0;

/** `unshare -rn` runs a command in a new network namespace with no interface up: provably offline. */
export const canRunOffline = commandWorks('unshare', ['-rn', 'true']);

export function cdkSynth(stage: string, outdir: string, { offline }: { offline: boolean }) {
  const cdk = [
    'npx',
    'cdk',
    'synth',
    '-c',
    `stage=${stage}`,
    '-c',
    'alarmEmail=alarms@acme.test',
    '-o',
    outdir,
    '--quiet',
    '--no-notices',
  ];
  const [command, ...args] = offline ? ['unshare', '-rn', ...cdk] : cdk;
  return execFileSync(command!, args, {
    cwd: REPO_ROOT,
    env: envWithoutAwsCredentials(),
    encoding: 'utf8',
    stdio: 'pipe',
    timeout: 120_000,
  });
}
