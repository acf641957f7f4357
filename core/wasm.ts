/**
 * Instantiates one of the project's own WebAssembly kernels (AssemblyScript sources in an
 * `assembly/` folder, compiled by `npm run build:wasm` into a base64 module beside it). They
 * import nothing and work on their own linear memory, so instantiation is synchronous.
 */

/** A kernel's linear memory (the part of WebAssembly.Memory used here). */
export interface KernelMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The WebAssembly API of the JavaScript runtime (the project's TypeScript lib has no DOM types). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

const { WebAssembly: api } = globalThis as unknown as { WebAssembly: WebAssemblyApi };

export function instantiateKernel<T extends object>(base64: string): T & { memory: KernelMemory } {
  const module = new api.Module(Buffer.from(base64, 'base64'));
  return new api.Instance(module, {}).exports as unknown as T & { memory: KernelMemory };
}

const PAGE_BYTES = 65536;

/**
 * Grows a kernel's memory to hold at least `bytes` and returns its buffer. Growing detaches every
 * view of the old buffer, so callers make their views from what this returns.
 */
export function memoryOfAtLeast(memory: KernelMemory, bytes: number): ArrayBuffer {
  const missing = Math.ceil((bytes - memory.buffer.byteLength) / PAGE_BYTES);
  if (missing > 0) memory.grow(missing);
  return memory.buffer;
}
