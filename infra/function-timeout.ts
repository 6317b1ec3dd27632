/**
 * The deployed functions' timeout, in a module without the CDK so that the local runtime can use it too
 * (its invocations count down from the same budget). Database calls end well before it: see
 * shared/store/dynamodb-client.ts `DYNAMODB_TIMEOUTS` and docs/api.md "Ambiguous outcomes".
 */
export const FUNCTION_TIMEOUT_MS = 10_000;
