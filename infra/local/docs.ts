/**
 * The local runtime's documentation routes: `GET /` (a pointer to the two others), `GET /openapi.json` (the document of shared/openapi/document.ts)
 * and `GET /docs`, an interactive reference rendered by Swagger UI (swagger-ui-dist), served from
 * node_modules — no CDN, nothing fetched from outside this server. "Try it out" calls this server.
 */
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { renderOpenApiDocument } from '../../shared/openapi/document.ts';
import { ROUTES } from '../../shared/routes.ts';
import { usDate } from './banner.ts';
import type { StaticRoute } from './server.ts';

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Files of swagger-ui-dist served under /docs/. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Invoicing and Payments API — reference</title>
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <style>body { margin: 0; } .swagger-ui .topbar { display: none; }</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  persistAuthorization: true,
  validatorUrl: null
});
`;

function reply(res: ServerResponse, contentType: string, body: string | Buffer, cache = 'no-cache') {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(200, { 'content-type': contentType, 'content-length': bytes.length, 'cache-control': cache });
  res.end(bytes);
}

export interface DocsOptions {
  /** The demo invoice's reference code, once seeded: the payment examples of the served document pay it. */
  demoReferenceCode?: () => string | undefined;
  /** The time zone of the demo account, which decides "today" for the payment example's date. */
  timeZone?: string;
}

export interface LiveExample {
  referenceCode: string;
  /** The base URL the page was loaded from (the document's first server). */
  baseUrl?: string | undefined;
  now?: Date;
  timeZone?: string;
}

interface ServedDocument {
  servers: { url: string; description?: string }[];
  paths: Record<
    string,
    {
      post: {
        requestBody: {
          content: Record<string, { examples?: Record<string, { value: Record<string, unknown> }>; example?: string }>;
        };
      };
    }
  >;
}

/**
 * The document with the add-payment examples made to work as shown on "Try it out" (the committed examples
 * name an invoice of the capture database and the day they were captured): they pay the demo invoice
 * 1,000.00 today, as the banner's curl example does (docs/running-locally.md), and the first server says
 * which base URL "This server" is.
 */
export function withLiveExamples(documentJson: string, live: LiveExample): string {
  const document = JSON.parse(documentJson) as ServedDocument;
  const date = usDate(live.now ?? new Date(), live.timeZone ?? 'Africa/Lagos');
  const payment = { reference_code: live.referenceCode, date, amount: '1000' };
  const content = document.paths['/payments']!.post.requestBody.content;
  for (const example of Object.values(content['application/json']?.examples ?? {}))
    Object.assign(example.value, payment);
  const form = content['application/x-www-form-urlencoded'];
  if (form?.example) {
    const fields = new URLSearchParams(form.example);
    for (const [name, value] of Object.entries(payment)) if (fields.has(name)) fields.set(name, value);
    form.example = fields.toString();
  }
  if (live.baseUrl && document.servers[0]) document.servers[0].description = `This server (${live.baseUrl})`;
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Static routes for `createLocalServer({ staticRoutes })`. */
export function docsRoutes(options: DocsOptions = {}): Record<string, StaticRoute> {
  let document: string | undefined;
  const servedDocument = (host: string | undefined): string => {
    document ??= renderOpenApiDocument();
    const code = options.demoReferenceCode?.();
    if (!code) return document;
    const baseUrl = host ? `http://${host}` : undefined;
    return withLiveExamples(document, {
      referenceCode: code,
      baseUrl,
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    });
  };
  const routes: Record<string, StaticRoute> = {
    // A pointer for whoever opens the base URL in a browser or curls it first.
    'GET /': (_req, res) =>
      reply(
        res,
        'application/json; charset=utf-8',
        `${JSON.stringify({
          status: 'success',
          message: 'Invoicing and Payments API. Reference: /docs (OpenAPI document: /openapi.json).',
          data: {
            docs: '/docs',
            openapi: '/openapi.json',
            routes: ROUTES.flatMap((route) =>
              [route.method, ...(route.extraMethods ?? [])].map((method) => `${method} ${route.path}`),
            ),
          },
        })}\n`,
      ),
    'GET /openapi.json': (req, res) => reply(res, 'application/json; charset=utf-8', servedDocument(req.headers.host)),
    'GET /docs': (_req, res) => reply(res, 'text/html; charset=utf-8', PAGE),
    'GET /docs/init.js': (_req, res) => reply(res, 'text/javascript; charset=utf-8', INIT),
  };
  for (const [file, contentType] of Object.entries(ASSETS)) {
    routes[`GET /docs/${file}`] = async (_req, res) =>
      reply(res, contentType, await readFile(join(swaggerDir, file)), 'max-age=3600');
  }
  return routes;
}
