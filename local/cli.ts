/**
 * The `eureka` command line. Results go to stdout (one JSON object with --json); progress and
 * logs go to stderr. Exit codes are for scripts (exit-codes.ts): 0 when the command did its job
 * and the result is good, 2 on bad usage, 1 on any other failure, 3-5 for a rejected reward or a
 * seed-run that did not train. Commands are imported when they run, so a quick command does not
 * load TensorFlow.js.
 */
import { Command, CommanderError } from 'commander';
import { DEFAULT_TASK_ID } from '../tasks/default-task.ts';
import { UsageError } from './flags.ts';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.ts';

// A reader that stops early (`eureka tasks --json | head -c 100`) closes the pipe: the command ends
// there as a Unix tool ends on SIGPIPE, quietly, instead of with an unhandled EPIPE's stack.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(EXIT.pipeClosed);
});

const TASK_OPTION = ['--task <id>', 'the task (eureka tasks lists them)', DEFAULT_TASK_ID] as const;

const program = new Command('eureka')
  .description('Search for reinforcement-learning reward functions, Eureka-style, locally or on AWS')
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) })
  .addHelpText('after', EXIT_CODES_HELP);

program
  .command('check-reward')
  .description('run a reward in the sandbox on sample transitions')
  .argument('<file>', 'JavaScript file defining computeReward')
  .option(...TASK_OPTION)
  .option('--remote', 'check on the deployed TrainSeed function (AWS credentials and --stack)')
  .option('--stack <name>', 'CloudFormation stack name for --remote', 'EurekaServerless')
  .option('--json', 'print one JSON object')
  .addHelpText('after', `
Exit codes: 0 the check and the screen pass the reward; 3 the sandbox check rejected it; 4 the check
passed and the screen fails it; 1 any other failure; 2 bad usage. The first line says which.`)
  .action(async (file: string, opts: object) => {
    const { checkRewardCommand } = await import('./commands/check-reward.ts');
    await checkRewardCommand({ ...opts, file });
  });

program
  .command('bank')
  .description('make a task\'s bank of episodes for the screen (trains the person\'s shaping, or the baseline the task names) and store it in the task\'s folder')
  .option(...TASK_OPTION)
  .option('--seeds <n>', 'seed-runs of that baseline at the task\'s budget (seeds 0..n-1)', '3')
  .option('--starts <n>', 'successful episodes wanted from each trained policy', '4')
  .option('--out <file>', 'where to write it (default: bank.json.gz in the task\'s folder)')
  .option('--add-policy <dir>', 'add a stored policy\'s successes (a search winner\'s: <data-dir>/bucket/searches/<id>/winner/policy) to the stored bank, training nothing')
  .option('--name <name>', 'with --add-policy: its name in the bank (kebab-case)', 'search-winner')
  .option('--words <text>', 'with --add-policy: what its episodes show, as a gerund phrase')
  .option('--json', 'print {task, file, bytes, episodes, steps, policies}')
  .action(async (opts: object) => {
    const { bankCommand } = await import('./commands/bank.ts');
    await bankCommand(opts);
  });

program
  .command('train')
  .description('one graded seed-run of a reward')
  .option('--reward <file>', 'JavaScript file defining computeReward')
  .option('--baseline <name>', 'instead of --reward: one of the task\'s two baselines, human (the person\'s shaping; a behaviour\'s first try) or environment (its own reward)')
  .option(...TASK_OPTION)
  .option('--seed <n>', 'training seed', '0')
  .option('--steps <n>', 'environment steps of training (default: the task\'s budget)')
  .option('--eval-episodes <n>', 'greedy evaluation episodes (default: the task\'s budget)')
  .option('--chunk-steps <n>', 'train in chunks of this many steps, resumed from a checkpoint as TrainSeed does (default: one piece here, the task\'s size with --remote)')
  .option('--remote', 'train on the deployed TrainSeed function (AWS credentials and --stack)')
  .option('--stack <name>', 'CloudFormation stack name for --remote', 'EurekaServerless')
  .option('--save-policy <dir>', 'save the trained policy in this folder, as a search publishes one (for eureka bank --add-policy)')
  .option('--json', 'print the seed-run result as one JSON object')
  .addHelpText('after', `
Exit codes: 0 the seed-run trained (whatever its success); 5 it did not (outcome timeout, memory or
error: a reward that does not parse, say); 1 any other failure; 2 bad usage.`)
  .action(async (opts: object) => {
    const { trainCommand } = await import('./commands/train.ts');
    await trainCommand(opts);
  });

program
  .command('search')
  .description('run a reward search on this machine (the same state machine as on AWS)')
  .option(...TASK_OPTION)
  .option('--smoke', 'a small search: 2 generations, 3 candidates, 2 seeds, the task\'s smoke steps')
  .option('--generations <n>', 'generations (default 4)')
  .option('--candidates <n>', 'candidates per generation (default 6)')
  .option('--seeds <n>', 'seeds per candidate (default 5)')
  .option('--fresh-seeds <n>', 'seeds of the re-check of the winner and the baselines after the last generation (default: as many as --seeds)')
  .option('--steps <n>', 'environment steps per seed-run (default: the task\'s budget)')
  .option('--eval-episodes <n>', 'greedy evaluation episodes a seed-run is graded on (default: the task\'s budget)')
  .option('--no-racing', 'train every checked candidate to the full budget (Eureka\'s way) instead of racing them')
  .option('--racing-eta <n>', 'racing: the top 1/eta of the candidates go on from each rung (default 3)')
  .option('--racing-rungs <n>', 'racing: rungs per generation, the last the full budget (default 3)')
  .option('--chunk-steps <n>', 'environment steps per TrainSeed invocation (default: the task\'s measured size)')
  .option('--random-seed <n>', 'seeds the offline proposer and everything random the search decides (default 0)')
  .option('--proposer <name>', 'offline, anthropic, bedrock, command:"CMD" (the prompt on its stdin, the JSON answer on its stdout) or files:DIR ' +
    '(DIR/request-N.md written, DIR/answer-N.json awaited) (default: anthropic with ANTHROPIC_API_KEY, else offline)')
  .option('--model <id>', 'model id for the anthropic or bedrock proposer')
  .option('--thinking-budget <tokens>', 'extended thinking for the model, this many tokens on top of its answer (1024 to 32000; default off)')
  .option('--no-hostile', 'leave the two hostile candidates out of generation 1')
  .option('--human-init <files...>', "your own rewards, added to generation 1")
  .option('--no-repair', 'do not send the candidates that fail their sandbox check back to the proposer')
  .option('--screen <mode>', 'a candidate that prefers a failure of the bank: report (train it), repair (send it back once) or skip (never train it)')
  .option('--feedback <mode>', 'wait: pause after each generation for `eureka feedback` (default none)')
  .option('--feedback-timeout <minutes>', 'how long a pause waits before the search goes on (default 60)')
  .option('--max-cost <usd>', 'stop asking the model before its cost could pass this many US dollars')
  .option('--search-id <id>', 'name the search (default: a new id)')
  .option('--resume <id>', 'continue a search: nothing finished is trained or proposed again')
  .option('--data-dir <dir>', 'where the table and the bucket live', '.eureka')
  .option('--json', 'print {searchId, winner, baselines, generations, cardPath}')
  .option('--estimate', 'print what the search would train and cost (steps, seed-runs, wall time, GB-seconds, the model\'s worst case) and stop: nothing is trained')
  .action(async (opts: object) => {
    const { searchCommand } = await import('./commands/search.ts');
    await searchCommand(opts);
  });

program
  .command('feedback')
  .description('answer a search that waits for your feedback after a generation')
  .argument('<id>', 'search id')
  .option('--text <words>', 'what you saw: it goes into the next prompt, beside the automatic reflection')
  .option('--continue', 'go on without words')
  .option('--stop', 'stop: re-check the best so far on fresh seeds and publish it')
  .option('--stack <name>', 'answer a search on AWS (the stack\'s table and SendTaskSuccess)')
  .option('--data-dir <dir>', 'where the local search runs', '.eureka')
  .option('--json', 'print {searchId, generation, action, text}')
  .action(async (id: string, opts: object) => {
    const { feedbackCommand } = await import('./commands/feedback.ts');
    await feedbackCommand({ ...opts, id });
  });

program
  .command('tasks')
  .description('the tasks a search can run on, with their spaces, success test and default budget')
  .option('--json', 'print {tasks: [...]}')
  .option('--strict', 'exit 1 when a folder or entry on EUREKA_TASK_PATH was skipped (each is one line on stderr)')
  .action(async (opts: object) => {
    const { tasksCommand } = await import('./commands/tasks.ts');
    await tasksCommand(opts);
  });

program
  .command('new-task')
  .description('write a folder for a task of your own that runs a smoke search as it stands: the worked example under your id, or a robot declared from its MJCF file (--xml)')
  .argument('<name>', 'the task\'s id and its folder\'s name, such as MyTask-v0')
  .option('--dir <dir>', 'the directory of task folders to write it in (what goes on EUREKA_TASK_PATH)', '.')
  .option('--xml <file>', 'a robot\'s MJCF file: the task is declared from it (its folder is copied into the task\'s model/)')
  .option('--in-place', 'with --xml: reference the XML where it is rather than copy its folder')
  .option('--json', 'print {task, folder, taskPath, files}')
  .action(async (name: string, opts: object) => {
    const { newTaskCommand } = await import('./commands/new-task.ts');
    await newTaskCommand({ ...opts, name });
  });

program
  .command('conformance')
  .description('replay episodes recorded from the original environment against a task\'s port')
  .requiredOption('--task <id>', 'the task whose environment is checked')
  .argument('<files...>', 'recorded episodes (the format of tasks/record-gymnasium.py)')
  .option('--state-tolerance <x>', 'largest deviation of the internal state (default: the task\'s, else 1e-9)')
  .option('--obs-tolerance <x>', 'largest deviation of an observation (default: the task\'s, else 1e-6)')
  .option('--reward-tolerance <x>', 'largest deviation of a reward (default: the task\'s, else 1e-6)')
  .option('--json', 'print {task, ok, tolerance, files}')
  .action(async (files: string[], opts: object) => {
    const { conformanceCommand } = await import('./commands/conformance.ts');
    await conformanceCommand({ ...opts, files });
  });

program
  .command('show')
  .description('the scoreboard of a search, running or finished (the latest by default), and its newest card')
  .argument('[id]', 'search id')
  .option('--data-dir <dir>', 'where the table and the bucket live', '.eureka')
  .option('--stack <name>', 'a search on AWS: the stack\'s table, and the card as a presigned URL')
  .option('--json', 'print one JSON object')
  .option('--open', 'open the newest card in the browser (the winner\'s, else the last generation\'s interim card)')
  .option('--generation <n>', 'one generation: the proposer\'s analysis, every candidate with the screen\'s words, and the reflection written after it')
  .action(async (id: string | undefined, opts: object) => {
    const { showCommand } = await import('./commands/show.ts');
    await showCommand({ ...opts, id });
  });

program
  .command('start')
  .description('start a search on AWS (the state machine of a deployed stack)')
  .option('--stack <name>', 'CloudFormation stack name', 'EurekaServerless')
  .option('--input <json>', 'execution input, e.g. \'{"smoke":true}\'', '{}')
  .option('--name <name>', 'execution name (default: generated; it becomes the search id)')
  .option('--json', 'print {executionArn, consoleUrl}')
  .option('--estimate', 'print what the search would cost on AWS (steps, seed-runs, wall time, GB-seconds and dollars in AWS_REGION, the model\'s worst case against the ceiling) and start nothing')
  .option('--max-cost <usd>', 'with --estimate: the stack\'s ceiling, when it was deployed with another than $10 (cdk deploy -c maxCostUsd=...)')
  .action(async (opts: object) => {
    const { startCommand } = await import('./commands/start.ts');
    await startCommand(opts);
  });

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (err instanceof UsageError || (err as Error).name === 'InvalidSearchInput') {
    // A search refused at its start (functions/shared/input/search-input.ts) is bad usage too.
    process.stderr.write(`eureka: ${(err as Error).message}\n`);
    process.exitCode = EXIT.usage;
  } else {
    // aws-local-stepfunctions wraps the failing state's error in a long prefix.
    const message = (err as Error).message.replace(/^Execution has failed with the following error: /, 'the search failed: ');
    process.stderr.write(`eureka: ${message}\n`);
    process.exitCode = EXIT.failure;
  }
}
