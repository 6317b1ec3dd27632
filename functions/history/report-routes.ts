/** The reports (docs/api.md "Aging", "Client statement"): parse → call the service → respond, in JSON or CSV. */
import type { RouteHandler } from '../../shared/http/handler.ts';
import { agingResponse, agingResume, statementResponse, withLinkCursor } from '../../shared/http/report-page.ts';
import { clientStatementSchema } from '../../shared/schemas/history.ts';
import { agingReportSchema } from '../../shared/schemas/reports.ts';
import { agingReport } from '../../shared/services/aging-report.ts';
import { clientStatement } from '../../shared/services/client-statement.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /reports/aging (the body is optional: `{}` is the whole account's client rows) */
export const agingReportRoute: RouteHandler = async ({ context, body, query, path, format }) => {
  const input = parseRequest(agingReportSchema, withLinkCursor(body ?? {}, query));
  const page = await agingReport(context, input, agingResume(context.account, input.cursor));
  return agingResponse(page, context.account, { format, path });
};

/** POST /clients/{id}/statement (the id is checked against its kind before this runs: shared/path-parameters.ts) */
export const clientStatementRoute: RouteHandler = async ({ context, body, pathParameters, format, path }) => {
  const input = parseRequest(clientStatementSchema, body, { periodFields: ['period', 'start', 'end'] });
  return statementResponse(await clientStatement(context, Number(pathParameters.id), input), { format, path });
};
