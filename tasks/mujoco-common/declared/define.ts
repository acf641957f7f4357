/**
 * `defineMujocoTask({...})`: a task from its MJCF file (declaration.ts), what a declared robot's
 * `task.ts` default-exports. It loads MuJoCo, reads the model's folder and holds the declaration
 * against the XML when the task loads (robot-model.ts), so a wrong name is one message naming the
 * field before anything runs; so it returns a promise, which the registry awaits. Where the
 * declaration's `facts` file was written from these files and names, it is read instead (robot-facts.ts). The task it
 * makes is an ordinary one: the observation's names and typical ranges, the action box [-1, 1]
 * per actuator, the environment (declared-env.ts), the manual the model reads in place of an
 * environment's source (manual.ts) and, unless the folder draws its own, the card (render.ts).
 */
import { basename } from 'node:path';
import type { TaskSpec, Termination } from '../../contract.ts';
import { describeSpecIssues } from '../../spec-schema.ts';
import { prepareMujoco } from '../mujoco-env.ts';
import { MUJOCO_PPO } from '../ppo.ts';
import { DeclarationSchema, type MujocoTaskDeclaration } from './declaration.ts';
import { declaredEnvClass } from './declared-env.ts';
import { robotManual } from './manual.ts';
import { declaredRenderer } from './render.ts';
import { readFacts } from './robot-facts.ts';
import { InvalidDeclaration, modelFilesOf, resolveRobot, xmlPath } from './robot-model.ts';

export { InvalidDeclaration };

export async function defineMujocoTask(declaration: MujocoTaskDeclaration): Promise<TaskSpec> {
  const parsed = DeclarationSchema.safeParse(declaration);
  if (!parsed.success) throw new InvalidDeclaration(describeSpecIssues(parsed.error));
  const d = declaration;
  const files = modelFilesOf(d);
  // Facts stored for these very files and names spare every process that loads the registry MuJoCo and a compile (robot-facts.ts).
  const stored = d.facts === undefined ? undefined : readFacts(xmlPath(d.facts, 'facts'), d, files);
  if (stored === undefined) await prepareMujoco();
  const robot = stored ?? resolveRobot(d, files);
  const Env = declaredEnvClass(d, robot);
  // Gymnasium's robots end an episode when they fall: a failure.
  const termination: Termination = d.termination === undefined || d.termination === 'none' ? 'never' : 'failure';
  return {
    id: d.id,
    description: d.description,
    maxEpisodeSteps: d.maxEpisodeSteps,
    observation: d.observation.map((o, k) => ({
      name: robot.observation[k].name,
      low: o.clip === undefined ? -Infinity : -o.clip,
      high: o.clip === undefined ? Infinity : o.clip,
      typical: robot.observation[k].typical,
      ...(o.hidden ? { hidden: true } : {}),
    })),
    recorded: (d.recorded ?? []).map((r) => ({ name: r.name })),
    action: {
      kind: 'box',
      names: d.actions.map((a, k) => a.name ?? `${a.actuator} (${robot.actuators[robot.actions[k].actuator].kind})`),
      low: d.actions.map(() => -1),
      high: d.actions.map(() => 1),
    },
    makeEnv: (n, seed) => new Env(n, seed),
    prepare: prepareMujoco,
    success: d.success,
    ...(d.tieBreak === undefined ? {} : { tieBreak: d.tieBreak }),
    progress: d.progress,
    termination,
    baselines: d.baselines,
    features: d.features,
    render: d.render ?? declaredRenderer(d, robot),
    budget: d.budget,
    ppo: d.ppo ?? MUJOCO_PPO,
    ...(d.bank === undefined ? {} : { bank: d.bank }),
    environmentText: robotManual(d, robot, basename(xmlPath(d.xml))),
  };
}
