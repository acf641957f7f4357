/**
 * The `eureka` command line. Results go to stdout (one JSON object with --json); progress and
 * logs go to stderr. Exit 0 when the command did its job, 2 on bad usage, 1 on any other failure.
 * Commands are imported when they run, so a quick command does not load TensorFlow.js.
 */
import { Command, CommanderError } from 'commander';
import { UsageError } from './flags.ts';

const program = new Command('eureka')
  .description('Search for reinforcement-learning reward functions, Eureka-style, locally or on AWS')
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) });

program
  .command('check-reward')
  .description('run a reward in the sandbox on sample transitions')
  .argument('<file>', 'JavaScript file defining computeReward')
  .option('--json', 'print one JSON object')
  .action(async (file: string, opts: object) => {
    const { checkRewardCommand } = await import('./commands/check-reward.ts');
    await checkRewardCommand({ ...opts, file });
  });

program
  .command('train')
  .description('one graded seed-run of a reward')
  .requiredOption('--reward <file>', 'JavaScript file defining computeReward')
  .option('--seed <n>', 'training seed', '0')
  .option('--steps <n>', 'environment steps of training', '150000')
  .option('--eval-episodes <n>', 'greedy evaluation episodes', '20')
  .option('--json', 'print the seed-run result as one JSON object')
  .action(async (opts: object) => {
    const { trainCommand } = await import('./commands/train.ts');
    await trainCommand(opts);
  });

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else if (err instanceof UsageError) {
    process.stderr.write(`eureka: ${err.message}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`eureka: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
