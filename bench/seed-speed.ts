/**
 * A task's `budget.stepsPerSecond` where no search measured it (docs/estimate-and-costs.md, "Each
 * task's speed"): one seed-run of the task's person's shaping in this process, one core as
 * TrainSeed has (1769 MB: one vCPU), its grading included, timed by the process's own CPU seconds
 * so that what else the machine runs does not slow the figure down (the wall seconds are printed
 * beside them). Over a part of the budget (`--steps`) the grading weighs more, so the speed comes
 * out a little low, never high.
 *
 *   npx tsx bench/seed-speed.ts --task Ant-v5 [--steps 102400] [--seed 0]
 */
import { runSeed } from '../functions/train-seed/seed-run.ts';
import { getTask } from '../tasks/registry.ts';
import { benchArgs } from './args.ts';

const { values: args } = benchArgs(import.meta.url, { options: { task: { type: 'string' }, steps: { type: 'string' }, seed: { type: 'string' } } });
const task = getTask(args.task ?? 'MountainCar-v0');
const steps = Number(args.steps ?? task.budget.steps);
const seed = Number(args.seed ?? 0);

await task.prepare?.();
const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
const { result } = await runSeed({
  task, candidateId: 'speed', source: task.baselines.human.code, seed, budget: { steps, evalEpisodes: task.budget.evalEpisodes },
});
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const wallSeconds = (performance.now() - wallBefore) / 1000;
const trained = result.stepsTrained;
process.stdout.write(`${JSON.stringify({
  task: task.id, seed, steps: trained, outcome: result.outcome, cpuSeconds: Number(cpuSeconds.toFixed(1)), wallSeconds: Number(wallSeconds.toFixed(1)),
  stepsPerCpuSecond: Math.round(trained / cpuSeconds), stepsPerWallSecond: Math.round(trained / wallSeconds), recorded: task.budget.stepsPerSecond ?? null,
})}\n`);
