/**
 * The AWS quotas the search's definition can meet, besides the execution history's
 * (history-events.ts): one place, read by the local runtime that enforces them (local/quota-watch.ts,
 * the dynalite table, the events file) and by the tests that measure the largest search against
 * them. Each with the error AWS answers past it. Plain values only.
 */

/** Step Functions: a state's input or output, as UTF-8 JSON (States.DataLimitExceeded, which no Catch catches). */
export const STATE_DATA_LIMIT_BYTES = 256 * 1024;

/**
 * Lambda, a synchronous invocation: the request ("... byte payload is too large for the
 * RequestResponse invocation type (limit 6291456 bytes)") and the response ("Response payload
 * size exceeded maximum allowed payload size (6291556 bytes)", error type
 * Function.ResponseSizeTooLarge): 6 MB each, the response's a hundred bytes more.
 */
export const LAMBDA_PAYLOAD = {
  requestBytes: 6_291_456,
  requestError: 'Lambda.RequestTooLargeException',
  responseBytes: 6_291_556,
  responseError: 'Function.ResponseSizeTooLarge',
} as const;

/**
 * DynamoDB: an item's names and values, 400 KB (ValidationException "Item size has exceeded the
 * maximum allowed size"). dynalite, the local table, computes the size as DynamoDB does and
 * refuses the same items with the same error.
 */
export const DYNAMODB_ITEM_LIMIT_BYTES = 400 * 1024;

/**
 * EventBridge: one PutEvents entry (Time 14 bytes if given, Source, DetailType, Detail and each
 * Resources entry in UTF-8) must stay under 256 KB (ValidationException "Total size of the entries
 * in the request is over the limit."). Step Functions' PutEvents integration appends the execution's
 * and the state machine's ARNs to Resources.
 */
export const EVENT_ENTRY_LIMIT_BYTES = 256 * 1024;
export const EVENT_ENTRY_ERROR = { name: 'ValidationException', message: 'Total size of the entries in the request is over the limit.' } as const;
