/**
 * The document's overview (`info.description`): the rules every operation shares, and the table of error codes
 * built from `ERROR_STATUS`.
 */
import { ERROR_STATUS } from '../http/errors.ts';

function errorTable(): string {
  const byStatus = new Map<number, string[]>();
  for (const [code, status] of Object.entries(ERROR_STATUS))
    byStatus.set(status, [...(byStatus.get(status) ?? []), `\`${code}\``]);
  const rows = [...byStatus].map(([status, codes]) => `| ${status} | ${codes.join(', ')} |`);
  return ['| HTTP | codes |', '|---|---|', ...rows].join('\n');
}

export const DESCRIPTION = `Invoice clients, record payments against invoices, list invoices and payment history, and keep a client list.

**Authentication**: every request carries an account's secret key as \`Authorization: Bearer sk_…\`.

**Envelope**: every body has a top-level \`status\`: \`success\` (with \`data\`, and \`message\` on writes) or \`error\`
(with \`code\`, \`message\`, \`errors[]\` and \`request_id\`).

**Idempotency**: send \`Idempotency-Key\` on \`POST /invoices\`, \`POST /payments\`, \`POST /clients\`, reversals and the two send routes to make retries safe (kept 24 h):
the same key and body replays the first response with \`Idempotent-Replayed: true\`; the same key with another body is 422.

**5xx**: \`503 service_unavailable\` and \`500 internal_error\` are only sent when nothing was written: retry (503 after
\`Retry-After\`). \`504 outcome_unknown\` means the write **may** have been recorded: retry only with the same
\`Idempotency-Key\` (it replays the recorded response or writes once), or check the payment history first.

**Money** is sent as a string or number (\`"1,500.50"\`, \`1500\`) and returned as a string with two decimals.
**Dates**: \`MM/DD/YYYY\` for \`due_date\` and payment \`date\`, \`DD/MM/YYYY\` for history \`start\`/\`end\`;
returned as Unix timestamps (seconds, string) of 00:00 UTC of the date.

Error codes (stable API; messages are for humans):

${errorTable()}

\`route_not_found\` and \`method_not_allowed\` come from the local runtime (\`npm start\`); deployed, API Gateway answers unknown routes itself.
A trailing slash on any path is ignored (\`/payments/history/\`).
The guide: docs/api.md.`;
