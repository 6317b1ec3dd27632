/**
 * The docs a new user reads first stay complete as routes and error codes are added: every route of the route table
 * (shared/routes.ts) in README's endpoint table, in running-locally.md's "Routes" and in api.md's "Endpoints"; every
 * `##` section of api.md in its contents line; every error code (shared/errors.ts) in api.md's errors table with its
 * status; and every curl example of the docs on `$BASE` (the line `npm start` prints exports it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../shared/http/errors.ts';
import { ROUTES } from '../../shared/routes.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/**
 * The text from the heading `heading` (a whole line) to the next heading of the same or a higher level; a shell
 * comment in a fenced code block (`# …`) is no heading.
 */
function section(text: string, heading: string): string {
  const lines = text.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/^#/gm, ' #')).split('\n');
  const start = lines.indexOf(heading);
  if (start === -1) throw new Error(`no heading "${heading}"`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && line.indexOf(' ') <= level);
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

/** `METHOD /path` code spans in the first two cells of a markdown table's rows. */
function routesInTable(text: string): Set<string> {
  const found = new Set<string>();
  for (const line of text.split('\n').filter((l) => l.startsWith('|'))) {
    const cells = line.split('|').slice(1, 3).join('|');
    for (const [, span] of cells.matchAll(/`((?:GET|POST|PUT|PATCH|DELETE) \/[^`]*)`/g)) found.add(span!);
  }
  return found;
}

const routeLabels = ROUTES.map((route) => `${route.method} ${route.path}`);

/** Routes missing from a table, and rows naming a route the route table does not have. */
function compareRoutes(listed: Set<string>) {
  return {
    missing: routeLabels.filter((label) => !listed.has(label)),
    unknown: [...listed].filter((label) => !routeLabels.includes(label)),
  };
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');

/** (status, code) pairs of a markdown table whose rows start `| 409 | \`code\` |`. */
function errorRows(text: string): string[] {
  return [...text.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map(([, status, code]) => `${status} ${code}`);
}

/** The lines of a markdown file's fenced code blocks whose info string is a shell's (not ```mermaid, ```json…). */
function shellLines(text: string): string[] {
  const found: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^```\s*(\S*)/.exec(line);
    if (marker) fence = fence === undefined ? marker[1]! : undefined;
    else if (fence !== undefined && ['', 'sh', 'bash', 'shell', 'text'].includes(fence)) found.push(line);
  }
  return found;
}

/** Curl commands in a markdown file's shell blocks not on `$BASE`, or with it in single quotes (never expanded). */
function curlsOffBase(file: string, text: string): string[] {
  return shellLines(text)
    .filter((line) => /\bcurl\s/.test(line) && (!/\$\{?BASE\}?\//.test(line) || /'\$\{?BASE/.test(line)))
    .map((line) => `${file}: ${line.trim()}`);
}

describe('the docs are complete', () => {
  it("README's endpoint table lists every route", () => {
    const table = read('README.md').split('\n## ')[0]!;
    expect(compareRoutes(routesInTable(table))).toEqual({ missing: [], unknown: [] });
  });

  it('running-locally.md lists every route under "Routes"', () => {
    const routes = section(read('docs/running-locally.md'), '## Routes');
    expect(compareRoutes(routesInTable(routes)).missing).toEqual([]);
  });

  it('api.md lists every route under "Endpoints"', () => {
    const endpoints = section(read('docs/api.md'), '## Endpoints');
    expect(compareRoutes(routesInTable(endpoints))).toEqual({ missing: [], unknown: [] });
  });

  it("api.md's contents line links every section", () => {
    const text = read('docs/api.md');
    const headings = text
      .split('\n')
      .filter((line) => line.startsWith('## '))
      .map((line) => line.slice(3));
    const contents = text.split('\n\n').find((paragraph) => paragraph.startsWith('Contents:'))!;
    const linked = [...contents.matchAll(/\[([^\]]+)\]\(#([^)]+)\)/g)].map(
      ([, title, anchor]) => `${title} #${anchor}`,
    );
    expect(linked).toEqual(headings.map((heading) => `${heading} #${anchorOf(heading)}`));
  });

  it("api.md's errors table has every error code with its status, and no other", () => {
    const table = errorRows(section(read('docs/api.md'), '## Errors'));
    const expected = Object.entries(ERROR_STATUS).map(([code, status]) => `${status} ${code}`);
    expect([...table].sort()).toEqual([...expected].sort());
  });

  it('every curl example of the docs calls $BASE', () => {
    const docs = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).map((name) => `docs/${name}`)];
    const found = docs.filter((file) => file.endsWith('.md')).flatMap((file) => curlsOffBase(file, read(file)));
    expect(found).toEqual([]);
  });

  it('the checks find what is missing (the checks themselves work)', () => {
    const table = '| `POST /invoices` | x |\n| `GET /nowhere` | y |';
    expect(compareRoutes(routesInTable(table)).unknown).toEqual(['GET /nowhere']);
    expect(compareRoutes(routesInTable(table)).missing).toContain('POST /payments');
    expect(anchorOf('Server errors: what a client should do')).toBe('server-errors-what-a-client-should-do');
    expect(anchorOf('Invoices: read, list, delete')).toBe('invoices-read-list-delete');
    expect(errorRows('| 409 | `invoice_deleted` | A payment |\n| 4xx | nothing |')).toEqual(['409 invoice_deleted']);
    const doc =
      '```json\n{}\n```\ncurl in prose\n```sh\ncurl -sS http://127.0.0.1:3000/invoices\ncurl -sS "$BASE/invoices"\ncurl \'$BASE/clients?limit=2\'\n```\n```mermaid\na([curl / SDK])\n```';
    expect(curlsOffBase('x.md', doc)).toEqual([
      'x.md: curl -sS http://127.0.0.1:3000/invoices',
      "x.md: curl '$BASE/clients?limit=2'",
    ]);
    expect(section('# A\n## B\nb\n### C\nc\n```sh\n# c\n```\n## D\nd', '## B')).toBe(
      '## B\nb\n### C\nc\n```sh\n # c\n```',
    );
  });
});
