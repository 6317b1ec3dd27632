/**
 * Validates a UBL document the way the published artefacts would, with what npm ships (docs/e-invoice.md
 * "Validation"): the XML is parsed by slimdom (a malformed document throws), its structure is checked against the UBL
 * 2.1 content models (./ubl-structure.ts, the XSD's stand-in) and the business rules (./ubl-rules.ts) are evaluated
 * with fontoxpath. Findings carry the published rule's id, so a failure names the rule.
 */
import fontoxpath from 'fontoxpath';
import { type Document, type Element, type Node, parseXmlDocument } from 'slimdom';
import { UBL_RULES, type UblRule } from './ubl-rules.ts';
import { AMOUNT, CONTENT_MODELS, DATE_ELEMENTS, DECIMAL_ELEMENTS, INDICATOR_ELEMENTS } from './ubl-structure.ts';

export interface Finding {
  id: string;
  flag: 'fatal' | 'warning';
  location: string;
  text: string;
}

export const NAMESPACES: Record<string, string> = {
  ubl: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cn: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
// fontoxpath is a UMD bundle: Node's ESM loader sees only its default export.
const { evaluateXPathToBoolean, evaluateXPathToNodes, evaluateXPathToStrings } = fontoxpath;
const PREFIX_OF = Object.fromEntries(Object.entries(NAMESPACES).map(([prefix, uri]) => [uri, prefix]));
const namespaceResolver = (prefix: string) => NAMESPACES[prefix] ?? null;

/** Every two-letter code ICU names as a region (ISO 3166-1 alpha-2, and a few user-assigned ones such as XK). */
const COUNTRIES = (() => {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
  return letters.flatMap((a) => letters.map((b) => a + b)).filter((code) => names.of(code) !== code);
})();

/** The Electronic Address Scheme codes EN 16931 accepts; Peppol's list is the same less the non-ICD ones. */
const PEPPOL_EAS =
  '0002 0007 0009 0037 0060 0088 0096 0097 0106 0130 0135 0142 0147 0151 0154 0158 0170 0177 0183 0184 0188 0190 0191 0192 0193 0194 0195 0196 0198 0199 0200 0201 0202 0203 0204 0205 0208 0209 0210 0211 0212 0213 0215 0216 0217 0218 0221 0225 0230 0235 0240 9910 9913 9914 9915 9918 9919 9920 9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936 9937 9938 9939 9940 9941 9942 9943 9944 9945 9946 9947 9948 9949 9950 9951 9952 9953 9957 9959'.split(
    ' ',
  );
const EAS = [...PEPPOL_EAS, '0219', '0220', 'AN', 'AQ', 'AS', 'AU', 'EM'];

const VARIABLES = {
  currencies: Intl.supportedValuesOf('currency'),
  countries: COUNTRIES,
  easCodes: EAS,
  peppolEasCodes: PEPPOL_EAS,
  unitCodes: ['C62', 'EA', 'H87', 'HUR', 'DAY', 'MON', 'KGM', 'LTR', 'MTR'],
  paymentMeansCodes: ['1', '10', '20', '30', '31', '42', '48', '49', '57', '58', '59', '68', '97', 'ZZZ'],
};

export function parseUbl(xml: string): Document {
  return parseXmlDocument(xml);
}

/** All findings on the document: structure first, then the rules in their order. */
export function validateUbl(xml: string): Finding[] {
  const document = parseUbl(xml);
  return [
    ...structureFindings(document.documentElement!),
    ...UBL_RULES.flatMap((rule) => ruleFindings(document, rule)),
  ];
}

/** Reads a document back: the text of every node an XPath selects (prefixes `cac`, `cbc`, `ubl`, `cn`). */
export function readUbl(xml: string): (xpath: string) => string[] {
  const document = parseUbl(xml);
  return (xpath) => evaluateXPathToStrings(xpath, document, null, null, { namespaceResolver });
}

export const fatalIds = (findings: Finding[]): string[] => findings.filter((f) => f.flag === 'fatal').map((f) => f.id);

function ruleFindings(document: Document, rule: UblRule): Finding[] {
  const options = { namespaceResolver };
  const nodes = evaluateXPathToNodes<Node>(rule.context, document, null, VARIABLES, options);
  return nodes.flatMap((node) => {
    const failed = (text: string) => [{ id: rule.id, flag: rule.flag, location: locationOf(node), text }];
    try {
      return evaluateXPathToBoolean(rule.test, node, null, VARIABLES, options) ? [] : failed(rule.text);
    } catch (error) {
      // A dynamic error (two values where one is expected, a value that is no decimal) fails the rule, as it would
      // fail the published Schematron.
      return failed(`${rule.text} (not evaluable: ${(error as Error).message.split('\n')[0]})`);
    }
  });
}

const qualifiedName = (element: Element) =>
  element.parentElement ? `${PREFIX_OF[element.namespaceURI ?? ''] ?? '?'}:${element.localName}` : element.localName;

/** `/Invoice/cac:InvoiceLine[2]/cbc:ID`: where a finding is. */
export function locationOf(node: Node): string {
  const steps: string[] = [];
  for (let at: Node | null = node; at && at.nodeType !== 9; at = at.parentNode) {
    if (at.nodeType === 2) steps.unshift(`@${(at as unknown as { name: string }).name}`);
    if (at.nodeType !== 1) continue;
    const element = at as Element;
    const siblings = element.parentElement
      ? element.parentElement.children.filter((e) => e.localName === element.localName)
      : [element];
    steps.unshift(
      siblings.length > 1 ? `${qualifiedName(element)}[${siblings.indexOf(element) + 1}]` : qualifiedName(element),
    );
  }
  return `/${steps.join('/')}`;
}

const schemaFinding = (element: Element, text: string): Finding => ({
  id: 'UBL-XSD',
  flag: 'fatal',
  location: locationOf(element),
  text,
});

/** The UBL 2.1 schema's content models, element by element (./ubl-structure.ts). */
function structureFindings(element: Element): Finding[] {
  const name = qualifiedName(element);
  const isRoot = !element.parentElement;
  if (isRoot && !['ubl', 'cn'].includes(PREFIX_OF[element.namespaceURI ?? ''] ?? ''))
    return [schemaFinding(element, `${name} is not a UBL Invoice or CreditNote`)];
  if (name.startsWith('cbc:')) return basicFindings(element);
  const model = CONTENT_MODELS[name];
  if (!model) return [schemaFinding(element, `${name} is not an element this document type allows here`)];
  const findings: Finding[] = [];
  let position = -1;
  for (const child of element.children) {
    const index = model.sequence.indexOf(qualifiedName(child));
    if (index === -1) findings.push(schemaFinding(child, `${qualifiedName(child)} is not allowed in ${name}`));
    else if (index < position)
      findings.push(schemaFinding(child, `${qualifiedName(child)} is out of the schema's order in ${name}`));
    else position = index;
    findings.push(...structureFindings(child));
  }
  for (const required of model.required ?? []) {
    if (!element.children.some((child) => qualifiedName(child) === required))
      findings.push(schemaFinding(element, `${name} lacks ${required}`));
  }
  return findings;
}

/** A basic element: text only, of its schema type. */
function basicFindings(element: Element): Finding[] {
  const name = element.localName;
  const text = element.textContent ?? '';
  const wrong = (expected: string) => [schemaFinding(element, `cbc:${name} must be ${expected}: "${text}"`)];
  if (element.children.length > 0) return wrong('text only');
  if (AMOUNT.test(name) && !element.hasAttribute('currencyID')) return wrong('an amount with a currencyID');
  if ((AMOUNT.test(name) || DECIMAL_ELEMENTS.has(name)) && !/^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(text))
    return wrong('a decimal');
  if (DATE_ELEMENTS.has(name) && !/^\s*\d{4}-\d{2}-\d{2}\s*$/.test(text)) return wrong('a date');
  if (INDICATOR_ELEMENTS.has(name) && !/^\s*(true|false|1|0)\s*$/.test(text)) return wrong('a boolean');
  return [];
}
