/**
 * A renderer's engine loaded on its first use (the PDF engines with pdfkit and the fonts, the UBL engine with
 * xmlbuilder2), so that importing the renderer costs a function nothing at start. `specifier` is the engine's URL,
 * resolved by the renderer against its own `import.meta.url`: from source (npm start, the tests) the TypeScript
 * module; deployed, a file beside the function's bundle (infra/function-settings.ts). Computed at run time, it is an
 * import the bundler leaves alone instead of inlining the engine. A failed load is tried again by the next call.
 */
export function lazyEngine<Engine>(specifier: () => string): () => Promise<Engine> {
  let engine: Promise<Engine> | undefined;
  return () => {
    if (!engine) {
      engine = import(specifier()) as Promise<Engine>;
      engine.catch(() => {
        engine = undefined;
      });
    }
    return engine;
  };
}

/** The engine's URL beside `moduleUrl`: `sourceFile` when running from source, `bundleFile` when deployed. */
export const engineUrl = (moduleUrl: string, sourceFile: string, bundleFile: string): string =>
  new URL(moduleUrl.endsWith('.ts') ? sourceFile : `./${bundleFile}`, moduleUrl).href;
