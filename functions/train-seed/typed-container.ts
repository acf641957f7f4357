/**
 * A JSON value whose typed arrays travel as raw bytes: a seed-run's checkpoint (parameters, the
 * optimizer's moments, every generator's state) must come back to the last bit, and a float32
 * vector in JSON text is three times its size. Layout: MAGIC, a uint32 header length, the header
 * (JSON, each typed array replaced by {$typed, offset, length}), padding to 8, the bytes, and the
 * SHA-256 of everything before it: a container that changed by one bit is refused, never read.
 */
import { createHash } from 'node:crypto';

const MAGIC = new TextEncoder().encode('EUREKA-TYPED-2\n');
const DIGEST_BYTES = 32;
/** Every version's first line: EUREKA-TYPED-<n>. */
const FAMILY = 'EUREKA-TYPED-';
const NEWLINE = 0x0a;

const TYPES = { Float64Array, Float32Array, Int32Array, Uint32Array, Uint8Array } as const;
type TypeName = keyof typeof TYPES;
type Typed = InstanceType<(typeof TYPES)[TypeName]>;

interface TypedRef { $typed: TypeName; offset: number; length: number }

export class MalformedContainer extends Error {
  override readonly name: string = 'MalformedContainer';
}

/** A container, but of another version of this format (its first line names it). */
export class OtherContainerFormat extends MalformedContainer {
  override readonly name = 'OtherContainerFormat';
}

export function encodeTyped(value: unknown): Uint8Array {
  const chunks: Typed[] = [];
  let size = 0;
  const header = JSON.stringify(value, (_key, v: unknown) => {
    const name = typeName(v);
    if (name === undefined) return v;
    const typed = v as Typed;
    size = align(size, typed.BYTES_PER_ELEMENT);
    const ref: TypedRef = { $typed: name, offset: size, length: typed.length };
    chunks.push(typed);
    size += typed.byteLength;
    return ref;
  });
  const head = new TextEncoder().encode(header);
  const start = align(MAGIC.length + 4 + head.length, 8);
  const out = new Uint8Array(start + size + DIGEST_BYTES);
  out.set(MAGIC);
  new DataView(out.buffer).setUint32(MAGIC.length, head.length, true);
  out.set(head, MAGIC.length + 4);
  let offset = 0;
  for (const typed of chunks) {
    offset = align(offset, typed.BYTES_PER_ELEMENT);
    out.set(new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength), start + offset);
    offset += typed.byteLength;
  }
  out.set(sha256(out.subarray(0, start + size)), start + size);
  return out;
}

export function decodeTyped<T>(all: Uint8Array): T {
  if (all.length < MAGIC.length + 4 + DIGEST_BYTES || !MAGIC.every((b, i) => all[i] === b)) {
    const line = new TextDecoder().decode(all.subarray(0, MAGIC.length)).split('\n')[0];
    if (line.startsWith(FAMILY) && all[MAGIC.length - 1] === NEWLINE) throw new OtherContainerFormat(line);
    throw new MalformedContainer('not a typed container');
  }
  const bytes = all.subarray(0, all.length - DIGEST_BYTES);
  const digest = sha256(bytes);
  if (!digest.every((b, i) => all[bytes.length + i] === b)) throw new MalformedContainer('its SHA-256 does not match its bytes');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headLength = view.getUint32(MAGIC.length, true);
  const start = align(MAGIC.length + 4 + headLength, 8);
  if (start > bytes.length) throw new MalformedContainer('a header past the end of the container');
  const head = new TextDecoder().decode(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + headLength));
  try {
    return parseHeader<T>(head, bytes, start);
  } catch (error) {
    if (error instanceof SyntaxError) throw new MalformedContainer(`an unreadable header: ${error.message}`);
    throw error;
  }
}

function parseHeader<T>(head: string, bytes: Uint8Array, start: number): T {
  return JSON.parse(head, (_key, v: unknown) => {
    if (!isRef(v)) return v;
    const type = TYPES[v.$typed];
    const begin = start + v.offset;
    const end = begin + v.length * type.BYTES_PER_ELEMENT;
    if (end > bytes.length) throw new MalformedContainer(`a ${v.$typed} past the end of the container`);
    // A copy (a Node Buffer's slice is a view into a shared pool): aligned, and only these bytes.
    return new type(new Uint8Array(bytes.subarray(begin, end)).buffer);
  }) as T;
}

function typeName(v: unknown): TypeName | undefined {
  if (!ArrayBuffer.isView(v)) return undefined;
  return (Object.keys(TYPES) as TypeName[]).find((name) => v instanceof TYPES[name]);
}

function isRef(v: unknown): v is TypedRef {
  return typeof v === 'object' && v !== null && typeof (v as TypedRef).$typed === 'string' && Object.hasOwn(TYPES, (v as TypedRef).$typed);
}

function sha256(bytes: Uint8Array): Uint8Array {
  return createHash('sha256').update(bytes).digest();
}

function align(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}
