/**
 * The `text/csv` answers of the listings that offer them (docs/api.md "CSV") and the `application/pdf` answers of the
 * routes that offer one (docs/receivables.md "One client: the statement"), for the OpenAPI document.
 */
import {
  CLIENT_AGING_COLUMNS,
  INVOICE_COLUMNS,
  OPEN_INVOICE_COLUMNS,
  PAYMENT_COLUMNS,
  STATEMENT_COLUMNS,
  TAX_REPORT_COLUMNS,
} from '../http/csv-tables.ts';
import { type RouteName, routeNamed } from '../routes.ts';

/** The CSV columns of each route that answers `Accept: text/csv` (docs/api.md "CSV"), and whether it is paged. */
const CSV_TABLES: Partial<Record<RouteName, { columns: string; paged: boolean }>> = {
  'payment-history': { columns: headersOf(PAYMENT_COLUMNS), paged: true },
  'invoice-history': { columns: headersOf(INVOICE_COLUMNS), paged: true },
  'aging-report': {
    columns: `client rows: ${headersOf(CLIENT_AGING_COLUMNS)}; with \`"invoices": true\`: ${headersOf(OPEN_INVOICE_COLUMNS)}`,
    paged: true,
  },
  'client-statement': { columns: headersOf(STATEMENT_COLUMNS), paged: false },
  'tax-report': { columns: headersOf(TAX_REPORT_COLUMNS), paged: false },
};

function headersOf(columns: readonly { header: string }[]): string {
  return columns.map((column) => `\`${column.header}\``).join(', ');
}

/** The `text/csv` twin of a listing's 200, and the headers that page it. */
export function csvContent(route: RouteName) {
  const table = CSV_TABLES[route];
  if (!routeNamed(route).csv || !table) return undefined;
  const pagedBy = table.paged
    ? ' Paged as the JSON: the next page is the same request with the cursor of `X-Next-Cursor` (also in `Link`, rel="next").'
    : '';
  return {
    content: {
      'text/csv': {
        schema: {
          type: 'string',
          description:
            `With \`Accept: text/csv\`: the same rows as CSV (RFC 4180, header row, CRLF, UTF-8; amounts as plain decimals, ` +
            `dates YYYY-MM-DD; a text cell starting with = + - @ tab or CR is prefixed with '). Columns: ${table.columns}.${pagedBy}`,
        },
      },
    },
    headers: table.paged
      ? { Link: { $ref: '#/components/headers/Link' }, 'X-Next-Cursor': { $ref: '#/components/headers/X-Next-Cursor' } }
      : {},
  };
}

/** The `application/pdf` twin of a route's 200, on the routes that offer it (shared/routes.ts `pdf`). */
export function pdfContent(route: RouteName) {
  if (!routeNamed(route).pdf) return undefined;
  return {
    'application/pdf': {
      schema: {
        type: 'string',
        format: 'binary',
        description:
          'With `Accept: application/pdf`: the same answer as an A4 PDF, text selectable ' +
          '(`Content-Disposition: inline; filename="…pdf"`). Errors stay JSON.',
      },
    },
  };
}
