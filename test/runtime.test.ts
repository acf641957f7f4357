/**
 * The local runtime runs the deployed definition: bad execution input is refused as "Start the search"
 * refuses it, with a message that names the field, before the execution starts (so before any
 * proposer runs or anything trains). The definition it runs differs only in the clock of the Task
 * states its worker pool runs: the pool holds those to their cap in CPU time.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CHILD_PROCESS_CAPS, taskTimeoutSeconds } from '../infra/config.ts';
import { definitionAsl, taskStates, type AslDefinition } from '../infra/workflow-asl.ts';
import { LAMBDA_TASK_STATES } from '../infra/workflow-names.ts';
import { poolTimedDefinition, runLocalSearch } from '../local/runtime.ts';
import { taskWallSeconds } from '../local/train-seed-pool.ts';

/** Each Task state's TimeoutSeconds by name, Map iterations included. */
const taskTimeouts = (definition: AslDefinition) => Object.fromEntries([...taskStates(definition.States)].map(([name, state]) => [name, state.TimeoutSeconds]));

describe('Local: runLocalSearch', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a wrong type', { candidates: 'six' }, /"candidates" must be a whole number/],
    ['a value out of range', { seeds: 11 }, /"seeds" must be at most 10 \(got 11\)/],
    ['an unknown field', { generation: 3 }, /unknown field "generation"/],
    ['an unknown task', { task: 'Pong-v5' }, /"task" must be one of the known tasks: .*CartPole-v1.*MountainCar-v0.*\(got "Pong-v5"\)/],
  ];
  for (const [what, input, message] of bad) {
    it(`fails "Start the search" on ${what}, naming the field, before any proposer runs`, async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'eureka-bad-input-'));
      dirs.push(dataDir);
      const states: string[] = [];
      await assert.rejects(
        runLocalSearch({ dataDir, executionName: 'bad', input, onEvent: (e) => { if (e.type === 'state') states.push(e.name); } }),
        (err: Error) => message.test(err.message),
      );
      assert.deepEqual(states, [], 'refused before the execution started');
      assert.deepEqual(await readdir(join(dataDir, 'bucket')).catch(() => []), [], 'nothing was stored');
    });
  }

  it("gives the Task states of TrainSeed the pool's wall backstop as their TimeoutSeconds, and leaves every other state as AWS runs it", () => {
    const deployed = definitionAsl();
    const before = JSON.stringify(deployed);
    const local = poolTimedDefinition(deployed, CHILD_PROCESS_CAPS);
    assert.equal(JSON.stringify(deployed), before, 'the deployed definition is not touched');
    const [aws, here] = [taskTimeouts(deployed), taskTimeouts(local)];
    const pooled = Object.keys(aws).filter((name) => ['trainSeed', 'check'].includes(LAMBDA_TASK_STATES[name]));
    assert.equal(pooled.length, 5, 'three seed-run maps and two check maps');
    for (const name of Object.keys(aws)) {
      const role = LAMBDA_TASK_STATES[name];
      if (pooled.includes(name)) {
        assert.equal(aws[name], taskTimeoutSeconds(role));
        assert.equal(here[name], taskWallSeconds(CHILD_PROCESS_CAPS));
        assert.ok(Number(here[name]) > Number(aws[name]), "a longer clock than on AWS: the pool's CPU cap ends an invocation first");
      } else {
        assert.equal(here[name], aws[name], name);
      }
    }
    const { States: a, ...restAws } = deployed;
    const { States: b, ...restHere } = local;
    assert.deepEqual(restHere, restAws);
    assert.deepEqual(Object.keys(b), Object.keys(a));
  });
});
