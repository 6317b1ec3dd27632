/**
 * CPU profile of the local runtime serving one endpoint (how the bench's misses were diagnosed):
 *
 *   npx tsx bench/profile.ts [add-payment|add-invoice|history|list-clients] [requests=400]
 *
 * Starts in-memory DynamoDB Local and bench/server-child.ts under `node --cpu-prof` (with the bench's heap flags),
 * sends the requests sequentially (history: pages of 100 payments on 100 invoices, as the bench reads them), stops
 * the server (which writes the .cpuprofile into bench/results/profiles/) and prints the functions with the most self
 * time, grouped by package (ours vs node_modules vs node internals).
 * PROFILE_NODE_OPTIONS adds flags to the server, PROFILE_STDOUT=1 shows its output, PROFILE_LOG_LEVEL sets its
 * logging (default INFO).
 */
import { fork } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_REGION ??= 'eu-west-1';
process.env.TABLE_NAME = 'bench-profile';

const { ensureTable, startDynamoDbLocal } = await import('../infra/local/dynamodb-local.ts');
const { lambdaHeapFlags } = await import('../infra/function-memory.ts');
const { httpRequest, destroyAgent } = await import('./http.ts');

const [endpoint = 'add-payment', countArg = '400'] = process.argv.slice(2);
const count = Number(countArg);
const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const profileDir = path.join(REPO_ROOT, 'bench/results/profiles');
mkdirSync(profileDir, { recursive: true });
const before = new Set(readdirSync(profileDir));

const database = await startDynamoDbLocal();
await ensureTable(database.endpoint, 'bench-profile');
process.env.DYNAMODB_ENDPOINT = database.endpoint;
const { createAccount } = await import('../shared/store/accounts.ts');
const { secretKey } = await createAccount({ name: 'Profile' });
const child = fork(path.join(REPO_ROOT, 'bench/server-child.ts'), [], {
  cwd: REPO_ROOT,
  execArgv: [
    '--import',
    'tsx',
    '--cpu-prof',
    `--cpu-prof-dir=${profileDir}`,
    ...lambdaHeapFlags(),
    ...(process.env.PROFILE_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? []),
  ],
  env: { ...process.env, LOG_LEVEL: process.env.PROFILE_LOG_LEVEL ?? 'INFO' },
  stdio: ['ignore', process.env.PROFILE_STDOUT === '1' ? 'inherit' : 'ignore', 'inherit', 'ipc'],
});
const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
const headers = () => ({ authorization: `Bearer ${secretKey}`, 'idempotency-key': `p-${Math.random()}` });
const invoiceBody = {
  client: { first_name: 'Ada', last_name: 'Obi', email: 'ada@example.com', phone: '+2348012345678' },
  due_date: '12/31/2030',
  fee_bearer: 'client',
  items: [{ item: 'Design', description: 'Landing page', unit_cost: '900,000,000.00', quantity: '1' }],
};
const invoice = JSON.parse((await httpRequest(port, 'POST', '/invoices', invoiceBody, headers())).body).data;
const yesterday = new Date(Date.now() - 2 * 86_400_000);
const date = `${String(yesterday.getUTCMonth() + 1).padStart(2, '0')}/${String(yesterday.getUTCDate()).padStart(2, '0')}/${yesterday.getUTCFullYear()}`;
// The history page is read as the bench's history account holds it (bench/seeding.ts): each payment on its own
// invoice, so a page of 100 reads 100 invoices; the other endpoints only need payments to exist.
const clientIdInvoice = { ...invoiceBody, client: undefined, client_id: invoice.client.id };
for (let i = 0; i < 100; i++) {
  const paid =
    endpoint === 'history'
      ? JSON.parse((await httpRequest(port, 'POST', '/invoices', clientIdInvoice, headers())).body).data
      : invoice;
  await httpRequest(
    port,
    'POST',
    '/payments',
    { reference_code: paid.reference_code, date, amount: '1.00', channel: 'Cash' },
    headers(),
  );
}
if (endpoint === 'list-clients') {
  for (let i = 0; i < 100; i++)
    await httpRequest(
      port,
      'POST',
      '/clients',
      { ...invoiceBody.client, email: `client${i}@example.com`, company_name: `Company ${i}`, type: 'Customer' },
      headers(),
    );
}
const started = performance.now();
for (let i = 0; i < count; i++) {
  if (endpoint === 'add-payment')
    await httpRequest(
      port,
      'POST',
      '/payments',
      { reference_code: invoice.reference_code, date, amount: '1.00', channel: 'Cash' },
      headers(),
    );
  else if (endpoint === 'add-invoice') await httpRequest(port, 'POST', '/invoices', clientIdInvoice, headers());
  else if (endpoint === 'list-clients')
    await httpRequest(port, 'GET', '/clients?limit=100', undefined, { authorization: `Bearer ${secretKey}` });
  else
    await httpRequest(
      port,
      'POST',
      '/payments/history',
      { period: 'month', limit: 100 },
      { authorization: `Bearer ${secretKey}` },
    );
}
console.log(`${count} × ${endpoint}: ${((performance.now() - started) / count).toFixed(2)} ms per request`);
destroyAgent();
await new Promise((r) => {
  child.once('exit', r);
  child.send('stop');
});
await database.stop();

// --cpu-prof writes one profile per thread (tsx's loader runs in a worker): keep the busiest new one.
type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const busy = (p: Profile) => {
  const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  return p.samples.filter((id) => !idle.has(id)).length;
};
const candidates = readdirSync(profileDir)
  .filter((f) => f.endsWith('.cpuprofile') && !before.has(f))
  .map((f) => ({ f, p: JSON.parse(readFileSync(path.join(profileDir, f), 'utf8')) as Profile }))
  .sort((a, b) => busy(b.p) - busy(a.p));
const newest = candidates[0]!.f;
const profile = candidates[0]!.p;
const self = new Map<number, number>();
for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const node of profile.nodes) {
  const us = self.get(node.id) ?? 0;
  const url = node.callFrame.url.replace(`file://${REPO_ROOT}/`, '');
  const pkg = url.includes('node_modules/')
    ? url
        .split('node_modules/')
        .pop()!
        .split('/')
        .slice(0, url.includes('node_modules/@') ? 2 : 1)
        .join('/')
    : url.startsWith('node:')
      ? 'node internals'
      : url === ''
        ? `(${node.callFrame.functionName || 'vm'})`
        : 'our code';
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  const key = `${node.callFrame.functionName || '(anonymous)'} ${url}:${node.callFrame.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
}
const top = (map: Map<string, number>, n: number) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([k, us]) => `  ${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000 / count).toFixed(3)} ms/req  ${k}`,
    );
console.log(
  `profile: bench/results/profiles/${newest}\nself time by package:\n${top(byPackage, 15).join('\n')}\nself time by function:\n${top(byFunction, 30).join('\n')}`,
);
