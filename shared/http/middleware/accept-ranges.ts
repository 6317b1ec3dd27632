/**
 * Before content negotiation on the routes that answer CSV (docs/api.md "CSV"): each media range of `Accept` loses
 * its parameters, so that `text/csv; charset=utf-8` or `text/csv; header=present` matches `text/csv` as RFC 9110
 * reads it. The negotiator (@middy/http-content-negotiation, i.e. negotiator) matches a range with parameters only
 * against an offered type with the same parameters; weights (`q`) and what follows them are kept, so preferences,
 * wildcards and case are still its to judge.
 */
import type { ApiMiddleware } from './types.ts';

/** `text` split at each `separator` outside a quoted string (a parameter value may quote `,` or `;`). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let part = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === separator && !quoted) {
      parts.push(part);
      part = '';
      continue;
    }
    part += char;
    if (quoted && char === '\\')
      part += text[++index] ?? ''; // an escaped character, a quote included
    else if (char === '"') quoted = !quoted;
  }
  parts.push(part);
  return parts;
}

/** The `Accept` value with every media range's parameters left out, its weight and accept-extensions kept. */
export function withoutMediaTypeParameters(accept: string): string {
  return splitOutsideQuotes(accept, ',')
    .map((range) => {
      const [mediaType = '', ...parameters] = splitOutsideQuotes(range, ';').map((part) => part.trim());
      const weight = parameters.findIndex((parameter) => /^q\s*=/i.test(parameter));
      return [mediaType, ...(weight === -1 ? [] : parameters.slice(weight))].join(';');
    })
    .join(', ');
}

export function acceptWithoutParameters(): ApiMiddleware {
  return {
    name: 'acceptWithoutParameters',
    before: ({ event }) => {
      const accept = event.headers?.accept;
      if (accept) event.headers.accept = withoutMediaTypeParameters(accept);
    },
  };
}
