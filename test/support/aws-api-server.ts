/**
 * A loopback server that plays the two AWS APIs `eureka train --remote` calls besides S3:
 * CloudFormation's DescribeStacks (the query protocol: a form-encoded POST, an XML answer) for
 * the stack's outputs, and Lambda's Invoke (REST JSON: POST /2015-03-31/functions/<name>/invocations)
 * that runs a given handler, as Lambda would, with a thrown error as a FunctionError. The real
 * SDK clients reach it through AWS_ENDPOINT_URL_CLOUDFORMATION and AWS_ENDPOINT_URL_LAMBDA.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AwsApiServer {
  url: string;
  /** Every Invoke: the function name and the payload. */
  invocations: Array<{ functionName: string; payload: unknown }>;
  close(): Promise<void>;
}

export interface AwsApiOptions {
  stackName: string;
  outputs: Record<string, string>;
  /** The deployed function: its answer, or a thrown error (its name becomes errorType). */
  invoke: (functionName: string, payload: unknown) => Promise<unknown>;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function describeStacks(options: AwsApiOptions, requested: string): { status: number; body: string } {
  if (requested !== options.stackName) {
    return { status: 400, body: `<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><Error><Type>Sender</Type><Code>ValidationError</Code><Message>Stack with id ${xml(requested)} does not exist</Message></Error><RequestId>r-1</RequestId></ErrorResponse>` };
  }
  const outputs = Object.entries(options.outputs).map(([k, v]) => `<member><OutputKey>${xml(k)}</OutputKey><OutputValue>${xml(v)}</OutputValue></member>`).join('');
  return {
    status: 200,
    body: `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member>` +
      `<StackName>${xml(options.stackName)}</StackName><StackId>arn:aws:cloudformation:us-east-1:000000000000:stack/${xml(options.stackName)}/1</StackId>` +
      `<StackStatus>CREATE_COMPLETE</StackStatus><CreationTime>2026-12-01T00:00:00Z</CreationTime><Outputs>${outputs}</Outputs>` +
      `</member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></DescribeStacksResponse>`,
  };
}

export async function startAwsApiServer(options: AwsApiOptions): Promise<AwsApiServer> {
  const invocations: AwsApiServer['invocations'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const invoke = /^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(req.url ?? '');
      if (req.method === 'POST' && invoke) {
        const functionName = decodeURIComponent(invoke[1]);
        const payload: unknown = JSON.parse(body);
        invocations.push({ functionName, payload });
        options.invoke(functionName, payload).then(
          (out) => { res.writeHead(200, { 'content-type': 'application/json', 'x-amz-executed-version': '$LATEST' }); res.end(JSON.stringify(out)); },
          (error: Error) => {
            res.writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' });
            res.end(JSON.stringify({ errorType: error.name, errorMessage: error.message }));
          },
        );
        return;
      }
      const form = new URLSearchParams(body);
      if (req.method === 'POST' && form.get('Action') === 'DescribeStacks') {
        const { status, body: answer } = describeStacks(options, form.get('StackName') ?? '');
        res.writeHead(status, { 'content-type': 'text/xml' });
        res.end(answer);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `no such API here: ${req.method} ${req.url}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    invocations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
