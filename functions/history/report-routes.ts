/** The reports (docs/api.md "Aging", "Client statement"): parse → call the service → respond, in JSON or CSV. */
import { todayForOverdue } from '../../shared/clock.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { agingResponse, agingResume, statementResponse, withLinkCursor } from '../../shared/http/report-page.ts';
import { openInvoiceView } from '../../shared/http/report-views.ts';
import { clientIdOf } from '../../shared/schemas/client.ts';
import { clientStatementSchema } from '../../shared/schemas/history.ts';
import { agingReportSchema } from '../../shared/schemas/reports.ts';
import { agingReport } from '../../shared/services/aging-report.ts';
import { clientStatement } from '../../shared/services/client-statement.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /reports/aging (the body is optional: `{}` is the whole account's client rows) */
export const agingReportRoute: RouteHandler = async ({ account, body, query, path, format }) => {
  const input = parseRequest(agingReportSchema, withLinkCursor(body ?? {}, query));
  const asOf = todayForOverdue(account.timeZone);
  const page = await agingReport(account, input, {
    asOf,
    resume: agingResume(account, input.cursor),
    render: (invoice, daysOverdue) => JSON.stringify(openInvoiceView(invoice, daysOverdue, asOf)),
  });
  return agingResponse(page, account, { format, path });
};

/** POST /clients/{id}/statement */
export const clientStatementRoute: RouteHandler = async ({ account, body, pathParameters, path, format }) => {
  const input = parseRequest(clientStatementSchema, body, { periodFields: ['period', 'start', 'end'] });
  const result = await clientStatement(account, clientIdOf(pathParameters.id), input);
  return statementResponse(result, account, { format, path });
};
