/**
 * The card's headline, which both renderers lead with: who won, on which seeds, by how much over
 * each baseline; and, when the winner does not beat the best baseline on the fresh seeds, that
 * nothing the search found did, and which baseline to use instead (card-verdict.ts decides).
 */
import { cardTask, num, pct, points, rewardLabel, type CardData, type CardReward } from './card-data.ts';
import { baselineVerdict, type BaselineVerdict } from './card-verdict.ts';

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

export interface Versus {
  reward: CardReward;
  label: string;
  score: number;
  /** Winner minus this reward, on the same basis. */
  delta: number;
  /** Both fresh progress values, where they differ as shown: what the rank reads when success is level. */
  progress: { winner: number; theirs: number } | null;
}

export interface Headline {
  /** 'fresh' when the winner and every baseline were re-trained on fresh seeds. */
  basis: 'fresh' | 'search';
  score: number;
  /**
   * "g2-energy-shaping-1 reaches the flag in 95% of fresh episodes", or, when it does not beat the
   * best baseline there, that nothing did and which baseline to use: the task's words (plain text, unescaped).
   */
  title: string;
  /** "+45 points over the person's shaping, +95 over the environment's reward" (plain text). */
  versusText: string;
  versus: Versus[];
  /** The winner against the best baseline on the fresh seeds (null on an interim card). */
  verdict: BaselineVerdict | null;
}

/** The honest score of a reward: fresh seeds when there are any, else the search's. */
export function scoreOf(reward: CardReward, basis: 'fresh' | 'search'): number {
  const s = basis === 'fresh' ? reward.freshSuccess : reward.searchSuccess;
  return finite(s) ? s : 0;
}

export function headline(data: CardData): Headline {
  const { winner, baselines } = data;
  const task = cardTask(data);
  const success = task.success;
  const basis = [winner, ...baselines].every((r) => finite(r.freshSuccess)) ? 'fresh' : 'search';
  const score = scoreOf(winner, basis);
  const episodes = basis === 'fresh' ? 'fresh episodes' : 'episodes on the search\'s seeds';
  const verdict = data.interim ? null : baselineVerdict(winner, baselines, task.tieBreak);
  const title = verdict !== null && !verdict.beatsBaselines
    ? nothingBeatTitle(winner, verdict, score, success.clause)
    : score > 0
      ? `${winner.name} ${success.headline} in ${pct(score)} of ${episodes}`
      : `No reward succeeded (${success.clause}): the best, ${winner.name}, scores ${pct(score)} on ${episodes}`;
  const versus = baselines.map((reward) => {
    const s = scoreOf(reward, basis);
    const [mine, theirs] = [winner.freshProgress, reward.freshProgress];
    const progress = basis === 'fresh' && finite(mine) && finite(theirs) && num(mine) !== num(theirs)
      ? { winner: mine, theirs } : null;
    return { reward, label: rewardLabel(reward), score: s, delta: score - s, progress };
  });
  const versusText = versus.map((v, i) => {
    const { amount, relation, then } = versusWords(v, i === 0);
    return `${amount} ${relation}${then === '' ? '' : ` ${then}`}`;
  }).join(', ');
  return { basis, score, title, versusText, versus, verdict };
}

const SHORT_OF_IT: Record<BaselineVerdict['decidedBy'], string> = {
  success: '', tie: ', level with it', progress: ', level on success but less progress', steps: ', level on success and progress but slower to it',
};

/** The headline when the winner does not beat the best baseline on the fresh seeds: which one to use instead. */
function nothingBeatTitle(winner: CardReward, verdict: BaselineVerdict, score: number, clause: string): string {
  const best = verdict.bestBaseline;
  const bestScore = scoreOf(best, 'fresh');
  const lead = bestScore > 0 ? 'Nothing the search found beat the baselines' : `No reward succeeded (${clause}) and nothing the search found beat the baselines`;
  return `${lead}: use ${rewardLabel(best)} (${best.name}), ${pct(bestScore)} of fresh episodes; ` +
    `the search's best, ${winner.name}, ${pct(score)}${SHORT_OF_IT[verdict.decidedBy]}`;
}

/**
 * "+45 points" / "over the person's shaping"; "level" / "with …" when the rounded gap is zero, and
 * then, after the renderer's score, what the rank read next where it differs: "and more progress
 * (0.113 against 0.109)", so a headline never says level where summary.json's verdict says beaten.
 */
export function versusWords(v: Versus, first: boolean): { amount: string; relation: string; then: string } {
  const p = Math.round(v.delta * 100);
  if (p !== 0) return { amount: `${points(v.delta)}${first ? ' points' : ''}`, relation: `${p < 0 ? 'under' : 'over'} ${v.label}`, then: '' };
  const then = v.progress === null ? '' : `${v.progress.winner > v.progress.theirs ? 'and more' : 'but less'} progress (${num(v.progress.winner)} against ${num(v.progress.theirs)})`;
  return { amount: v.progress === null ? 'level' : 'level on success', relation: `with ${v.label}`, then };
}
