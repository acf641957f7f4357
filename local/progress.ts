/**
 * Progress on stderr: on a terminal, one bar per stage (baselines, each generation, fresh seeds)
 * and one per running seed-run; elsewhere (CI logs, pipes), one line per stage and per seed-run,
 * and one at each quarter of a seed-run's updates.
 */
import cliProgress from 'cli-progress';
import { stageOf, type RuntimeEvent } from './runtime.ts';

export function progressReporter(): { onEvent: (e: RuntimeEvent) => void; stop: () => void } {
  if (!process.stderr.isTTY) {
    const quarters = new Map<string, number>();
    return { onEvent: (e) => logLine(e, quarters), stop: () => {} };
  }
  const bars = new cliProgress.MultiBar({
    stream: process.stderr,
    format: '{label} [{bar}] {value}/{total} {unit}',
    hideCursor: true,
    clearOnComplete: false,
  }, cliProgress.Presets.shades_grey);
  const stages = new Map<string, cliProgress.SingleBar>();
  const running = new Map<string, cliProgress.SingleBar>();
  return {
    onEvent(e) {
      if (e.type === 'waiting') bars.log(waitingLine(e));
      if (e.type === 'stage') {
        stages.set(e.label, bars.create(e.seeds, 0, { label: e.label.padEnd(14), unit: 'seed-runs' }));
      } else if (e.type === 'seed') {
        const { task, state, update, total } = e.progress;
        const id = `${task.generation}/${task.candidateId}/${task.seed}`;
        if (state === 'progress' && update !== undefined && total !== undefined) {
          let bar = running.get(id);
          if (!bar) {
            bar = bars.create(total, 0, { label: `  ${task.candidateId.slice(0, 20)} s${task.seed}`.padEnd(14), unit: 'updates' });
            running.set(id, bar);
          }
          bar.update(update);
        } else if (state === 'finished' || state === 'killed') {
          const bar = running.get(id);
          if (bar) bars.remove(bar);
          running.delete(id);
          // By the task's own stage: the baselines train after generation 1 was proposed.
          if (state === 'finished') stages.get(stageOf(task))?.increment();
        }
      }
    },
    stop: () => bars.stop(),
  };
}

/** What to do when the search pauses for you. */
function waitingLine(e: Extract<RuntimeEvent, { type: 'waiting' }>): string {
  return `waiting for your feedback after generation ${e.generation} (until ${e.deadline})${e.cardPath ? `; the card so far: ${e.cardPath}` : ''}\n` +
    `  answer in another terminal: eureka feedback ${e.searchId} --data-dir ${e.dataDir} --text "..." | --continue | --stop\n`;
}

/**
 * A line per stage and per finished seed-run, and one at each quarter of a seed-run's updates: a
 * seed-run of a robot can train for half an hour, and a log with no line meanwhile looks hung.
 */
function logLine(e: RuntimeEvent, quarters: Map<string, number>): void {
  if (e.type === 'seed') {
    const { task, state, update, total } = e.progress;
    const id = `${task.generation}/${task.candidateId}/${task.seed}`;
    const quarter = update !== undefined && total !== undefined && total > 0 ? Math.floor((4 * update) / total) : 0;
    if (state === 'progress' && quarter >= 1 && quarter <= 3 && quarter > (quarters.get(id) ?? 0)) {
      quarters.set(id, quarter);
      process.stderr.write(`  ${task.candidateId} seed ${task.seed}: ${25 * quarter}% of its ${(total ?? 0).toLocaleString('en-US')} updates\n`);
    }
    if (state === 'finished' || state === 'killed') quarters.delete(id);
  }
  if (e.type === 'waiting') process.stderr.write(waitingLine(e));
  if (e.type === 'stage') process.stderr.write(`${e.label}: ${e.seeds} seed-run${e.seeds === 1 ? '' : 's'}\n`);
  if (e.type === 'seed' && e.progress.state === 'finished' && e.progress.summary) {
    const { task, summary } = e.progress;
    const at = task.targetSteps < task.budget.steps ? ` at ${summary.stepsTrained.toLocaleString('en-US')} steps` : '';
    const detail = summary.outcome === 'trained' ? `success ${(summary.success * 100).toFixed(0)}%${at}` : `${summary.outcome}: ${summary.reason}`;
    process.stderr.write(`  ${task.candidateId} seed ${task.seed}: ${detail}\n`);
  }
}
