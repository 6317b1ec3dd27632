/**
 * Where the time of one request goes inside the local runtime, sequentially (concurrency 1):
 *
 *   npx tsx bench/timeline.ts [add-payment|add-invoice|history] [requests=800]
 *
 * Starts in-memory DynamoDB Local and bench/timeline-child.ts, seeds, warms up, sends the requests one after another
 * and prints the medians of: the runtime before the handler (API Gateway's stand-in), the handler before its first
 * DynamoDB call, between calls, after the last, the runtime after the handler, and the transport (the load
 * generator's latency minus the time the request spent in the runtime). docs/performance.md cites its figures.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import type { RequestTimeline } from './timeline-child.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_REGION ??= 'eu-west-1';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
process.env.TABLE_NAME = 'bench-timeline';

const { ensureTable, startDynamoDbLocal } = await import('../infra/local/dynamodb-local.ts');
const { httpRequest, destroyAgent } = await import('./http.ts');
const { median } = await import('./stats.ts');

const [endpoint = 'add-payment', countArg = '800'] = process.argv.slice(2);
const count = Number(countArg);
const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const database = await startDynamoDbLocal();
await ensureTable(database.endpoint, 'bench-timeline');
process.env.DYNAMODB_ENDPOINT = database.endpoint;
const { createAccount } = await import('../shared/store/accounts.ts');
const { secretKey } = await createAccount({ name: 'Timeline' });
const child = fork(path.join(REPO_ROOT, 'bench/timeline-child.ts'), [], {
  cwd: REPO_ROOT,
  execArgv: ['--import', 'tsx'],
  env: { ...process.env, LOG_LEVEL: 'INFO', AUTH_CACHE_SECONDS: '30' },
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
const dump = () =>
  new Promise<{ requests: RequestTimeline[]; cpu: NodeJS.CpuUsage }>((resolve) => {
    child.once('message', resolve as (m: unknown) => void);
    child.send('dump');
  });

const headers = () => ({ authorization: `Bearer ${secretKey}`, 'idempotency-key': `t-${Math.random()}` });
const invoiceBody = {
  client: { first_name: 'Ada', last_name: 'Obi', email: 'ada@example.com', phone: '+2348012345678' },
  due_date: '12/31/2030',
  fee_bearer: 'client',
  items: [{ item: 'Design', description: 'Landing page', unit_cost: '900,000,000.00', quantity: '1' }],
};
const post = (route: string, body: unknown, h: Record<string, string> = headers()) =>
  httpRequest(port, 'POST', route, body, h);
const first = JSON.parse((await post('/invoices', invoiceBody)).body).data;
const byClient = { ...invoiceBody, client: undefined, client_id: first.client.id };
const yesterday = new Date(Date.now() - 86_400_000);
const date = `${String(yesterday.getUTCMonth() + 1).padStart(2, '0')}/${String(yesterday.getUTCDate()).padStart(2, '0')}/${yesterday.getUTCFullYear()}`;
if (endpoint === 'history') {
  for (let i = 0; i < 110; i++) {
    const invoice = JSON.parse((await post('/invoices', byClient)).body).data;
    await post('/payments', { reference_code: invoice.reference_code, date, amount: '1.00', channel: 'Cash' });
  }
}
const one = () =>
  endpoint === 'add-payment'
    ? post('/payments', { reference_code: first.reference_code, date, amount: '1.00', channel: 'Cash' })
    : endpoint === 'add-invoice'
      ? post('/invoices', byClient)
      : post('/payments/history', { period: 'week', limit: 100 }, { authorization: `Bearer ${secretKey}` });
for (let i = 0; i < 200; i++) await one(); // warm-up (JIT of both processes)
const before = await dump();
const latencies: number[] = [];
for (let i = 0; i < count; i++) latencies.push((await one()).ms);
const { requests, cpu } = await dump();

const ms = (values: number[]) => median(values).toFixed(3);
const lastEnd = (t: RequestTimeline) => Math.max(...t.calls.map((c) => c[1]));
const inRuntime = requests.map((t) => t.finished! - t.arrived);
console.log(`${endpoint}, ${count} requests at concurrency 1 (medians, ms):`);
console.log(
  `  latency ${ms(latencies)}; in the runtime ${ms(inRuntime)}; transport ${(median(latencies) - median(inRuntime)).toFixed(3)}`,
);
console.log(
  `  runtime before the handler ${ms(requests.map((t) => t.handlerStarted! - t.arrived))}` +
    ` | handler before DynamoDB ${ms(requests.map((t) => t.calls[0]![0] - t.handlerStarted!))}` +
    ` | between calls ${ms(requests.map((t) => (t.calls.length > 1 ? Math.min(...t.calls.slice(1).map((c) => c[0])) - t.calls[0]![1] : 0)))}` +
    ` | handler after DynamoDB ${ms(requests.map((t) => t.handlerEnded! - lastEnd(t)))}` +
    ` | runtime after the handler ${ms(requests.map((t) => t.finished! - t.handlerEnded!))}`,
);
console.log(
  `  DynamoDB (first call to last answer) ${ms(requests.map((t) => lastEnd(t) - t.calls[0]![0]))};` +
    ` runtime CPU ${((cpu.user + cpu.system - before.cpu.user - before.cpu.system) / 1000 / count).toFixed(3)} per request`,
);
destroyAgent();
child.send('stop');
await database.stop();
