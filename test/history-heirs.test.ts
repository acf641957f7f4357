/**
 * The history bound against the race's heir loop (issue 32, defect 8): when every candidate trained
 * to the budget faults there, the stopped one that got furthest trains on to the budget in its place
 * (race.ts), one more "Train rung", "Promote" and "More rungs?" each, as many times as there are
 * heirs. The bound of the search's own history (history-bound.ts) must count them. Run on the local
 * runtime's own count (the definition, QuotaWatch) with handlers shaped like the real ones.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import '../local/polyfills.ts';
import { StateMachine } from 'aws-local-stepfunctions';
import type { InitEvent, InitResult, PlanEvent, PromoteEvent, ProposeEvent, ProposeResult, PublishEvent, PublishResult, RaceState, ReflectEvent, ReflectResult } from '../functions/shared/search/contracts.ts';
import type { CheckItem, CheckSummary, ChunkAnswer, SeedTask } from '../functions/shared/search/types.ts';
import type { TaskRole } from '../infra/config.ts';
import { definitionAsl } from '../infra/workflow-asl.ts';
import { LAMBDA_TASK_STATES, STATE } from '../infra/workflow.ts';
import { QuotaWatch } from '../local/quota-watch.ts';
import { seedTasks } from '../functions/reflect/init.ts';
import { firstRung, promoteRung } from '../functions/reflect/race.ts';
import { raceSchedule } from '../functions/shared/search/race-schedule.ts';
import { parseSearchInput } from '../functions/shared/input/search-input.ts';
import { historyBound } from '../functions/shared/cost/history-bound.ts';
import { getTask } from '../tasks/registry.ts';

const INPUT = { task: 'MountainCar-v0', generations: 1, candidates: 16, seeds: 1, steps: 40_960, chunkSteps: 40_960, includeHostile: false, repair: false, racing: { eta: 8, rungs: 2 } };

/** Every candidate passes its check and trains to the first rung (ranked by its number); every seed-run to the budget faults there. */
function heirStubs() {
  const config = parseSearchInput(INPUT, { proposer: 'offline' });
  const task = getTask(config.task);
  const schedule = raceSchedule(config, task);
  const promotes: PromoteEvent[] = [];
  const ids = Array.from({ length: 16 }, (_, i) => `${String(i + 1).padStart(2, '0')}-candidate`);
  const summaryOf = (input: SeedTask, outcome: 'trained' | 'error', success: number) => ({
    candidateId: input.candidateId, seed: input.seed, outcome, reason: outcome === 'error' ? 'faulted at the budget' : '', success,
    meanSuccessSteps: null, meanReturn: -200, progress: null, stepsTrained: input.targetSteps, trainSuccessArea: success,
  });
  const roles: Record<TaskRole, (input: never) => unknown> = {
    init: (event: InitEvent): InitResult => ({ searchId: event.executionName, config, baselineTasks: seedTasks(event.executionName, 0, ['environment_reward'], config, 0), nextGeneration: 1, feedbackTimeoutSeconds: 60 }),
    propose: (event: ProposeEvent): ProposeResult => ({ generation: event.generation, stopped: null,
      checks: ids.map((candidateId): CheckItem => ({ kind: 'check', searchId: event.searchId, task: config.task, generation: event.generation, candidateId })) }),
    check: (item: CheckItem): CheckSummary => ({ candidateId: item.candidateId, verdict: 'ok', reason: '' }),
    repair: (): never => { throw new Error('nothing to repair'); },
    plan: (event: PlanEvent): RaceState => firstRung(event.generation, seedTasks(event.searchId, event.generation, event.checks.map((c) => c.candidateId), config, 0), schedule),
    promote: (event: PromoteEvent): RaceState => { promotes.push(event); return promoteRung(config, task, event).state; },
    trainSeed: (input: SeedTask): ChunkAnswer => ({ done: true, summary: input.generation > 0 && input.targetSteps >= schedule.at(-1)!
      ? summaryOf(input, 'error', 0) : summaryOf(input, 'trained', input.generation > 0 ? 1 - Number(input.candidateId.slice(0, 2)) / 20 : 0) }),
    reflect: (event: ReflectEvent): ReflectResult => ({ generation: event.generation, nextGeneration: event.generation + 1, more: false,
      best: { generation: 1, candidateId: ids[0], success: 0 }, freshTasks: [] }),
    feedback: (): never => { throw new Error('no feedback'); },
    finish: (): never => { throw new Error('no early finish'); },
    publish: (event: PublishEvent): PublishResult => ({ searchId: event.searchId, winner: null, baselines: [], cardKey: 'card.html' }),
  };
  const handlers: Record<string, (input: unknown) => unknown> = Object.fromEntries(Object.entries(LAMBDA_TASK_STATES).map(([name, role]) => [name, roles[role] as (input: unknown) => unknown]));
  handlers[STATE.announce] = () => ({ Entries: [{ EventId: 'e-1' }], FailedEntryCount: 0 });
  return { config, handlers, promotes };
}

describe('The history bound, when the race\'s finalists fault at the budget', () => {
  it('counts every heir that trains on in a finalist\'s place', async () => {
    const stub = heirStubs();
    const definition = definitionAsl();
    const watch = new QuotaWatch(definition);
    const machine = new StateMachine(definition as unknown as ConstructorParameters<typeof StateMachine>[0]);
    const execution = machine.run(INPUT as never, {
      overrides: {
        taskResourceLocalHandlers: Object.fromEntries(Object.entries(stub.handlers).map(([n, h]) => [n, watch.guard(n, h)])) as never,
        retryIntervalOverrides: Object.fromEntries(Object.keys(LAMBDA_TASK_STATES).map((name) => [name, 0])),
      },
      context: { Execution: { Name: 'heirs' } },
    });
    await watch.run(execution);
    // Two rungs, then every candidate the race stopped at the first, one heir after another, each faulting at the budget.
    const stopped = stub.promotes[1].finished.filter((s) => s.outcome === 'stopped').length;
    assert.ok(stopped >= 8, `${stopped} stopped`);
    assert.equal(stub.promotes.length, 2 + stopped);
    const counted = watch.history.report().search;
    const bound = historyBound(stub.config, getTask(stub.config.task)).search;
    assert.ok(counted <= bound, `the search's history is ${counted} events, its bound ${bound}`);
  });
});
