/**
 * Where a MuJoCo environment's time goes, from a V8 CPU profile (node --cpu-prof): the share of
 * samples in MuJoCo's own WebAssembly, in the bindings' JavaScript (@mujoco/mujoco's embind glue),
 * in the crossings between the two, in our environment's code (tasks/, physics/), in the garbage
 * collector, and the rest (start-up: loading TypeScript and the module, the benchmark's loop).
 */
interface ProfileNode { id: number; callFrame: { functionName: string; url: string } }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

function kindOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (url.startsWith('wasm')) return 'MuJoCo in WebAssembly';
  if (url.includes('@mujoco/mujoco')) return 'the bindings\' JavaScript';
  if (functionName.includes('JSToWasm') || functionName.includes('WasmToJS')) return 'crossings JavaScript-WebAssembly';
  if (url.includes('/tasks/') || url.includes('/physics/')) return 'our environment\'s code';
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(idle)') return 'idle';
  return 'start-up and the rest';
}

/** Shares of the profile's time by kind, largest first (idle left out). */
export function profileShares(profile: CpuProfile): Record<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const time = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (node === undefined) return;
    const kind = kindOf(node);
    if (kind !== 'idle') time.set(kind, (time.get(kind) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...time.values()].reduce((a, b) => a + b, 0) || 1;
  return Object.fromEntries([...time].sort((a, b) => b[1] - a[1]).map(([k, t]) => [k, Math.round((1000 * t) / total) / 1000]));
}
