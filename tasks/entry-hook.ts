/**
 * A Node module resolve hook (node:module `register`): resolves `eureka-serverless/task` to
 * task-entry.ts for a task folder anywhere on disk, which has no node_modules to find the package
 * in. The registry registers it before it imports a folder from EUREKA_TASK_PATH
 * (outside-folders.ts); every specifier goes on down the chain (tsx's hooks, then Node's).
 */
export const ENTRY_NAME = 'eureka-serverless/task';

interface ResolveContext { conditions: string[]; importAttributes: Record<string, string>; parentURL?: string }
type NextResolve = (specifier: string, context: ResolveContext) => Promise<{ url: string; format?: string | null; shortCircuit?: boolean }>;

let entryUrl = '';

/** Told where task-entry.ts is (a file URL) when the hook is registered. */
export function initialize(data: { entryUrl: string }): void {
  entryUrl = data.entryUrl;
}

export async function resolve(specifier: string, context: ResolveContext, nextResolve: NextResolve): Promise<{ url: string; format?: string | null; shortCircuit?: boolean }> {
  // The entry's file URL goes on down the chain as if the folder had imported it by path, so tsx
  // resolves and compiles it as it does every other .ts file.
  return nextResolve(specifier === ENTRY_NAME ? entryUrl : specifier, context);
}
