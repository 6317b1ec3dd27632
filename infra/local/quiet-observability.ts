/**
 * Imported first (`import './quiet-observability.ts'`) by every local entry point that runs the service's code:
 * `npm start` and the CLI. Metrics (CloudWatch EMF lines) and tracing mean nothing off AWS; docs/running-locally.md
 * says they are off, unless these variables are already set. Powertools reads them when its objects are created,
 * which happens while an entry point's imports are evaluated (before its own body runs): setting them in the body,
 * as main.ts once did, came too late and every request printed an EMF line.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_TRACE_ENABLED ??= 'false';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
