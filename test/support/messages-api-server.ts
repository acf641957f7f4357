/**
 * A loopback server that plays the Anthropic Messages API and Bedrock's InvokeModel for Claude,
 * for tests that drive the real SDKs. Each request takes the next scripted response and is
 * recorded (method, path, headers, body). An answer is delivered the way the request asked:
 *
 *   POST /v1/messages, "stream": true             server-sent events, as the Messages API streams
 *   POST /v1/messages                             one JSON Message
 *   POST /model/<id>/invoke-with-response-stream  the same events in AWS event-stream binary frames
 *   POST /model/<id>/invoke                       one JSON Message
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface ScriptedAnswer {
  kind: 'answer';
  text: string;
  /** The model's thinking, streamed as a thinking block before the text; its tokens in usage.thinking_tokens. */
  thinking?: { text: string; tokens: number };
  /** @default 'end_turn' */
  stopReason?: string;
  stopDetails?: { type: 'refusal'; category: string | null; explanation: string | null } | null;
  usage?: Partial<Usage>;
  /** The usage worked out from the request the server received (its own count of what was sent), instead of `usage`. */
  usageOf?: (body: Record<string, unknown>) => Partial<Usage>;
}

export interface ScriptedError {
  kind: 'error';
  status: number;
  /** The body's error.type, e.g. rate_limit_error, overloaded_error, api_error. */
  type: string;
  message: string;
  headers?: Record<string, string>;
}

/** A stream that breaks off: message_start and one text delta, then the connection drops. */
export interface ScriptedCut {
  kind: 'cut';
  usage?: Partial<Usage>;
}

export type Scripted = ScriptedAnswer | ScriptedError | ScriptedCut;

export interface RecordedRequest {
  method: string;
  /** The URL path as sent (percent-encoded). */
  rawPath: string;
  /** The URL path, decoded. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** An answer chosen from the request itself; 'hold' keeps the request open, unanswered, until the server closes. */
export type Responder = (body: Record<string, unknown>) => Scripted | 'hold';

export interface MessagesApiServer {
  url: string;
  /** Responses still to give, in order; push more at any time. */
  script: Scripted[];
  /** When set, answers every request instead of the script. */
  respond: Responder | null;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export const answer = (text: string, rest: Omit<ScriptedAnswer, 'kind' | 'text'> = {}): ScriptedAnswer => ({ kind: 'answer', text, ...rest });

export const apiError = (status: number, type: string, message: string, headers: Record<string, string> = {}): ScriptedError =>
  ({ kind: 'error', status, type, message, headers });

export const cut = (usage: Partial<Usage> = {}): ScriptedCut => ({ kind: 'cut', usage });

export const DEFAULT_USAGE: Usage = { input_tokens: 1000, output_tokens: 2000, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

let nextId = 1;

const thinkingBlock = (a: ScriptedAnswer) => ({ type: 'thinking', thinking: a.thinking?.text ?? '', signature: 'sig-test' });
const outputDetails = (a: ScriptedAnswer) => (a.thinking ? { output_tokens_details: { thinking_tokens: a.thinking.tokens } } : {});

function messageOf(a: ScriptedAnswer, model: string, withText: boolean): Record<string, unknown> {
  const text = { type: 'text', text: a.text, citations: null };
  return {
    id: `msg_test_${nextId++}`,
    type: 'message',
    role: 'assistant',
    model,
    content: withText ? (a.thinking ? [thinkingBlock(a), text] : [text]) : [],
    stop_reason: withText ? (a.stopReason ?? 'end_turn') : null,
    stop_sequence: null,
    stop_details: withText ? (a.stopDetails ?? null) : null,
    usage: { ...DEFAULT_USAGE, ...a.usage, ...(withText ? outputDetails(a) : { output_tokens: 1 }) },
  };
}

/** A thinking block's events at index 0, as the Messages API streams extended thinking. */
function thinkingEvents(a: ScriptedAnswer): Array<Record<string, unknown>> {
  if (!a.thinking) return [];
  return [
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: a.thinking.text } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-test' } },
    { type: 'content_block_stop', index: 0 },
  ];
}

/** The Messages API's stream for one answer: the text arrives in three deltas. */
export function streamEvents(a: ScriptedAnswer, model: string): Array<Record<string, unknown>> {
  const usage = { ...DEFAULT_USAGE, ...a.usage };
  const size = Math.max(1, Math.ceil(a.text.length / 3));
  const pieces = a.text === '' ? [] : Array.from({ length: Math.ceil(a.text.length / size) }, (_, i) => a.text.slice(i * size, (i + 1) * size));
  const index = a.thinking ? 1 : 0;
  return [
    { type: 'message_start', message: messageOf(a, model, false) },
    ...thinkingEvents(a),
    { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    { type: 'ping' },
    ...pieces.map((text) => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } })),
    { type: 'content_block_stop', index },
    {
      type: 'message_delta',
      delta: { stop_reason: a.stopReason ?? 'end_turn', stop_sequence: null, stop_details: a.stopDetails ?? null },
      usage: { output_tokens: usage.output_tokens, ...outputDetails(a) },
    },
    { type: 'message_stop' },
  ];
}

// ---- AWS event-stream framing --------------------------------------------------------------------

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0, 0);
  return b;
}

/** One frame: prelude (total and headers length, CRC32), string headers (type 7), payload, CRC32. */
export function eventStreamFrame(headers: Record<string, string>, payload: Buffer): Buffer {
  const encoded = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const n = Buffer.from(name, 'utf8');
      const v = Buffer.from(value, 'utf8');
      const len = Buffer.alloc(2);
      len.writeUInt16BE(v.length, 0);
      return Buffer.concat([Buffer.from([n.length]), n, Buffer.from([7]), len, v]);
    }),
  );
  const prelude = Buffer.concat([u32(12 + encoded.length + payload.length + 4), u32(encoded.length)]);
  const message = Buffer.concat([prelude, u32(crc32(prelude)), encoded, payload]);
  return Buffer.concat([message, u32(crc32(message))]);
}

function bedrockChunk(event: Record<string, unknown>): Buffer {
  const bytes = Buffer.from(JSON.stringify(event), 'utf8').toString('base64');
  return eventStreamFrame(
    { ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' },
    Buffer.from(JSON.stringify({ bytes }), 'utf8'),
  );
}

// ---- The server ----------------------------------------------------------------------------------

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  res.writeHead(status, { 'request-id': `req_test_${nextId++}`, ...headers });
  res.end(body);
}

function respond(res: ServerResponse, scripted: Scripted | undefined, path: string, body: Record<string, unknown>): void {
  if (scripted === undefined) {
    send(res, 500, { 'content-type': 'application/json', 'x-should-retry': 'false' },
      JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'test server: script exhausted' } }));
    return;
  }
  if (scripted.kind === 'error') {
    send(res, scripted.status, { 'content-type': 'application/json', ...scripted.headers },
      JSON.stringify({ type: 'error', error: { type: scripted.type, message: scripted.message } }));
    return;
  }
  if (scripted.kind === 'cut') {
    const events = streamEvents({ kind: 'answer', text: '{"candidates": [{"na', usage: scripted.usage }, String(body.model)).slice(0, 4);
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'request-id': `req_test_${nextId++}` });
    res.write(events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join(''));
    setTimeout(() => res.destroy(), 20);
    return;
  }
  if (scripted.usageOf) scripted = { ...scripted, usage: scripted.usageOf(body) };
  const bedrock = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(path);
  const model = bedrock ? bedrock[1] : String(body.model);
  const streamed = bedrock ? bedrock[2] === 'invoke-with-response-stream' : body.stream === true;
  if (!streamed) {
    send(res, 200, { 'content-type': 'application/json' }, JSON.stringify(messageOf(scripted, model, true)));
    return;
  }
  const events = streamEvents(scripted, model);
  if (bedrock) {
    send(res, 200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-bedrock-content-type': 'application/json' },
      Buffer.concat(events.map(bedrockChunk)));
    return;
  }
  send(res, 200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
    events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join(''));
}

export async function startMessagesApiServer(script: Scripted[] = []): Promise<MessagesApiServer> {
  const requests: RecordedRequest[] = [];
  const state: { script: Scripted[]; respond: Responder | null } = { script, respond: null };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        const parsed: unknown = text === '' ? {} : JSON.parse(text);
        if (parsed !== null && typeof parsed === 'object') body = parsed as Record<string, unknown>;
      } catch {
        body = { unparsed: text };
      }
      const rawPath = (req.url ?? '/').split('?')[0];
      const path = decodeURIComponent(rawPath);
      requests.push({ method: req.method ?? '', rawPath, path, headers: req.headers, body });
      const chosen = state.respond === null ? state.script.shift() : state.respond(body);
      if (chosen !== 'hold') respond(res, chosen, path, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get script() {
      return state.script;
    },
    set script(s: Scripted[]) {
      state.script = s;
    },
    get respond() {
      return state.respond;
    },
    set respond(r: Responder | null) {
      state.respond = r;
    },
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
