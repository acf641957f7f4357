/**
 * The search table (DESIGN §3): one DynamoDB table keyed by `pk`/`sk` strings, reached with the
 * SDK's own client. Locally it is dynalite; the SDK finds it through AWS_ENDPOINT_URL_DYNAMODB.
 * Items are JSON-like values stored as native DynamoDB attributes (readable in the console), with
 * JSON's rules: undefined fields are left out, anything JSON cannot hold is refused. Reads are
 * strongly consistent so a step always sees what the previous step wrote. No transactions
 * (dynalite has none): single-item conditional writes only.
 */
import {
  type AttributeValue,
  ConditionalCheckFailedException,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { requireEnv } from '../ops/env.ts';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [field: string]: JsonValue };

/** An item as read back: its key and JSON-like fields. */
export interface Item {
  pk: string;
  sk: string;
  [field: string]: JsonValue;
}

/** An item to write: fields of any JSON-serializable shape (checked when marshalled). */
export interface ItemInput {
  pk: string;
  sk: string;
  [field: string]: unknown;
}

export class Table {
  constructor(
    readonly tableName: string,
    readonly client: DynamoDBClient = new DynamoDBClient({}),
  ) {}

  async getItem(pk: string, sk: string): Promise<Item | undefined> {
    const out = await this.client.send(
      new GetItemCommand({ TableName: this.tableName, Key: keyOf(pk, sk), ConsistentRead: true }),
    );
    return out.Item ? toItem(out.Item) : undefined;
  }

  async putItem(item: ItemInput): Promise<void> {
    await this.client.send(new PutItemCommand({ TableName: this.tableName, Item: marshallItem(item) }));
  }

  /** Writes the item only if its key is free; false when another writer got there first. */
  async putIfAbsent(item: ItemInput): Promise<boolean> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: marshallItem(item),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** putIfAbsent, then the item that holds the key: ours if we won, the winner's if we lost. */
  async putIfAbsentOrGet(item: ItemInput): Promise<{ created: boolean; item: Item }> {
    const created = await this.putIfAbsent(item);
    const stored = await this.getItem(item.pk, item.sk);
    if (!stored) throw new Error(`Item ${item.pk} / ${item.sk} vanished right after it was written`);
    return { created, item: stored };
  }

  /** Every item of the partition whose sort key starts with skPrefix, in sort-key order. */
  async queryPrefix(pk: string, skPrefix: string): Promise<Item[]> {
    const items: Item[] = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const out = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: skPrefix === '' ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': { S: pk }, ...(skPrefix === '' ? {} : { ':prefix': { S: skPrefix } }) },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const raw of out.Items ?? []) items.push(toItem(raw));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }

  /**
   * Sets the given fields (undefined ones are skipped), creating the item if it is absent, and
   * returns the whole item as stored afterwards.
   */
  async updateFields(pk: string, sk: string, fields: Record<string, unknown>): Promise<Item> {
    const names: Record<string, string> = {};
    const values: Record<string, AttributeValue> = {};
    const sets: string[] = [];
    for (const [name, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      if (name === 'pk' || name === 'sk') throw new TypeError(`updateFields cannot change the key field "${name}"`);
      const i = sets.length;
      names[`#f${i}`] = name;
      values[`:v${i}`] = marshallValue(value, name);
      sets.push(`#f${i} = :v${i}`);
    }
    if (sets.length === 0) throw new TypeError('updateFields needs at least one defined field');
    const out = await this.client.send(
      new UpdateItemCommand({
        TableName: this.tableName,
        Key: keyOf(pk, sk),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toItem(out.Attributes ?? keyOf(pk, sk));
  }
}

/**
 * Adds `delta` to a number field in one conditional write (the item and field are made if absent).
 * With `atMost`, only if the field's total stays at most that; false when it would not (the
 * field is left as it was). Two writers can never both pass the bound: DynamoDB applies one
 * update at a time to an item.
 */
export async function addWithin(table: Table, pk: string, sk: string, field: string, delta: number, atMost?: number): Promise<boolean> {
  if (atMost !== undefined && delta > atMost) return false;
  const room = atMost === undefined ? {} : {
    ConditionExpression: 'attribute_not_exists(#f) OR #f <= :room',
    ExpressionAttributeValues: { ':d': { N: String(delta) }, ':room': { N: String(atMost - delta) } },
  };
  try {
    await table.client.send(new UpdateItemCommand({
      TableName: table.tableName, Key: keyOf(pk, sk), UpdateExpression: 'ADD #f :d',
      ExpressionAttributeNames: { '#f': field }, ExpressionAttributeValues: { ':d': { N: String(delta) } }, ...room,
    }));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** The table the environment names (EUREKA_TABLE); the endpoint is the SDK's to find. */
export function tableFromEnv(): Table {
  return new Table(requireEnv('EUREKA_TABLE', 'the DynamoDB table of searches'));
}

function keyOf(pk: string, sk: string): Record<string, AttributeValue> {
  return { pk: { S: pk }, sk: { S: sk } };
}

// ---- Marshalling: JSON-like values <-> DynamoDB attribute values -------------------------------

export function marshallItem(item: ItemInput): Record<string, AttributeValue> {
  if (typeof item.pk !== 'string' || typeof item.sk !== 'string') {
    throw new TypeError('An item needs string pk and sk');
  }
  return marshallMap(item, '');
}

export function marshallValue(value: unknown, path: string): AttributeValue {
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'boolean') return { BOOL: value };
  if (value === null) return { NULL: true };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`Cannot store ${path}: ${value} is not a finite number`);
    return { N: String(dynamoNumber(value)) };
  }
  if (Array.isArray(value)) {
    // As JSON does: an undefined element becomes null, so indices keep their meaning.
    return { L: value.map((v: unknown, i) => marshallValue(v === undefined ? null : v, `${path}[${i}]`)) };
  }
  if (isPlainObject(value)) return { M: marshallMap(value, path) };
  const kind = typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value;
  throw new TypeError(`Cannot store ${path}: a ${kind} is not a JSON value`);
}

/**
 * The number DynamoDB holds nearest to a finite one: its numbers run from 1e-130 to just under
 * 1e126 in magnitude, and it refuses the rest ("Number underflow", "Number overflow"), failing the
 * whole write. A reward's term statistics reach either end (a Gaussian term far from its centre
 * averages 1e-204), so a smaller magnitude is stored as 0 and a larger one as the largest
 * DynamoDB holds, with its sign: a statistic keeps its scale, and the search its record.
 */
export function dynamoNumber(value: number): number {
  if (Math.abs(value) < DYNAMO_SMALLEST) return 0;
  if (Math.abs(value) > DYNAMO_LARGEST) return Math.sign(value) * DYNAMO_LARGEST;
  return value;
}
const DYNAMO_SMALLEST = 1e-130;
/** Below DynamoDB's 9.9999999999999999999999999999999999999E+125 as written: the double nearest 1e126 prints as 1e+126. */
const DYNAMO_LARGEST = 9.999999999999998e125;

function marshallMap(fields: Record<string, unknown>, path: string): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) out[name] = marshallValue(value, path === '' ? name : `${path}.${name}`);
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function unmarshallValue(value: AttributeValue): JsonValue {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return Number(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL !== undefined) return null;
  if (value.L !== undefined) return value.L.map(unmarshallValue);
  if (value.M !== undefined) return unmarshallMap(value.M);
  throw new TypeError(`Unsupported DynamoDB attribute type ${Object.keys(value).join(', ')}`);
}

function unmarshallMap(map: Record<string, AttributeValue>): { [field: string]: JsonValue } {
  const out: { [field: string]: JsonValue } = {};
  for (const [name, value] of Object.entries(map)) out[name] = unmarshallValue(value);
  return out;
}

function toItem(raw: Record<string, AttributeValue>): Item {
  const { pk, sk, ...fields } = unmarshallMap(raw);
  if (typeof pk !== 'string' || typeof sk !== 'string') throw new TypeError('A stored item lacks string pk and sk');
  return { ...fields, pk, sk };
}
