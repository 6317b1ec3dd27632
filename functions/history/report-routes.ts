/** The reports (docs/api.md "Aging", "Client statement"; docs/tax.md "Tax report"): parse → call the service → respond, in JSON or CSV. */
import type { RouteHandler } from '../../shared/http/handler.ts';
import {
  agingResponse,
  agingResume,
  statementPdfResponse,
  statementResponse,
  taxReportResponse,
  withLinkCursor,
} from '../../shared/http/report-page.ts';
import { renderStatementPdf } from '../../shared/render/engines.ts';
import { clientStatementSchema, taxReportSchema } from '../../shared/schemas/history.ts';
import { agingReportSchema } from '../../shared/schemas/reports.ts';
import { agingReport } from '../../shared/services/aging-report.ts';
import { clientStatement, clientStatementDocument } from '../../shared/services/client-statement.ts';
import { taxReport } from '../../shared/services/tax-report.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /reports/aging (the body is optional: `{}` is the whole account's client rows) */
export const agingReportRoute: RouteHandler = async ({ context, body, query, path, format }) => {
  const input = parseRequest(agingReportSchema, withLinkCursor(body ?? {}, query));
  const page = await agingReport(context, input, agingResume(context.account, input.cursor));
  return agingResponse(page, context.account, { format, path });
};

/** POST /clients/{id}/statement, as JSON, CSV or PDF (the id is checked against its kind before this runs: shared/path-parameters.ts) */
export const clientStatementRoute: RouteHandler = async ({ context, body, pathParameters, format, path }) => {
  const input = parseRequest(clientStatementSchema, body, { periodFields: ['period', 'start', 'end'] });
  const clientId = Number(pathParameters.id);
  if (format === 'pdf') {
    const document = await clientStatementDocument(context, clientId, input);
    return statementPdfResponse(await renderStatementPdf(document), document.fileName);
  }
  return statementResponse(await clientStatement(context, clientId, input), { format, path });
};

/** POST /reports/tax, as JSON or CSV */
export const taxReportRoute: RouteHandler = async ({ context, body, format, path }) => {
  const input = parseRequest(taxReportSchema, body, { periodFields: ['period', 'start', 'end'] });
  return taxReportResponse(await taxReport(context, input), { format, path });
};
