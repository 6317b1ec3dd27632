/** `qs/lib/parse.js` is what `qs.parse` is (qs/lib/index.js re-exports it); @types/qs only types the package entry. */
declare module 'qs/lib/parse.js' {
  import type { parse } from 'qs';

  const parseQuery: typeof parse;
  export default parseQuery;
}
