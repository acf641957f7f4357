/**
 * A robot's episodes against Gymnasium's, by distribution, with as many of ours as asked: the
 * task's own distribution check (tasks/mujoco-common/distribution.ts: its recorded policies, rank
 * tests of lengths, returns and endings) on recordings of any size, e.g. 200 random Ant episodes of
 * Gymnasium's on native MuJoCo 3.14.0 against 200 of ours (docs/mujoco.md, "On MuJoCo 3.14"):
 *
 *   npx tsx bench/mujoco-native/distribution.ts --task Ant-v5 --episodes 200 FILE.json.gz [FILE ...]
 */
import { readFileSync } from 'node:fs';
import { recordingText } from '../../tasks/conformance.ts';
import { prepareTask } from '../../tasks/registry.ts';
import { compareDistributions } from '../../tasks/mujoco-common/distribution.ts';
import { mujocoEpisode, type MujocoEpisode } from '../../tasks/mujoco-common/recording.ts';
import { SAME_VERSION_SPECS } from './same-version-specs.ts';
import { argError, benchArgs } from '../args.ts';

const { values: args, positionals: files } = benchArgs(import.meta.url, { options: { task: { type: 'string' }, episodes: { type: 'string', default: '40' } }, allowPositionals: true });
const spec = SAME_VERSION_SPECS[args.task ?? ''];
const distribution = spec === undefined ? undefined : [spec.physics].flat().find((p) => p.check === 'distribution');
if (distribution?.check !== 'distribution') argError(import.meta.url, `needs --task ID, one of ${Object.keys(SAME_VERSION_SPECS).filter((id) => [SAME_VERSION_SPECS[id].physics].flat().some((p) => p.check === 'distribution')).join(', ')}`);
await prepareTask(args.task!);
const episodes: MujocoEpisode[] = files.flatMap((f) => (JSON.parse(recordingText(readFileSync(f))) as { episodes: unknown[] }).episodes.map((e) => mujocoEpisode(e as MujocoEpisode)));
process.stdout.write(`${compareDistributions(spec.make, { ...distribution, episodes: Number(args.episodes) }, episodes).detail}\n`);
