/**
 * A credit note's documents (docs/tax.md "Credit notes"), with the API key: its e-invoice (UBL XML) and its PDF.
 * Parse → read the note → render → respond; each engine loads on its first document.
 */
import type { RouteHandler } from '../../shared/http/handler.ts';
import { namedPdfResponse, namedUblResponse } from '../../shared/http/page-responses.ts';
import { renderCreditNotePdf, renderUbl } from '../../shared/render/engines.ts';
import { accountCreditNoteDocument, accountCreditNoteUbl } from '../../shared/services/credit-note-documents.ts';

const addressOf = (pathParameters: Record<string, string | undefined>) => ({
  referenceCode: pathParameters.reference_code ?? '',
  number: pathParameters.number ?? '',
});

/** GET /invoices/{reference_code}/credit-notes/{number}/ubl: the UBL CreditNote. */
export const creditNoteUblRoute: RouteHandler = async ({ context, pathParameters }) => {
  const address = addressOf(pathParameters);
  const xml = await renderUbl(await accountCreditNoteUbl(context, address));
  return namedUblResponse(xml, `credit-note-${address.number}.xml`);
};

/** GET /invoices/{reference_code}/credit-notes/{number}/pdf: the credit note on A4. */
export const creditNotePdfRoute: RouteHandler = async ({ context, pathParameters }) => {
  const document = await accountCreditNoteDocument(context, addressOf(pathParameters));
  return namedPdfResponse(await renderCreditNotePdf(document), document.fileName);
};
