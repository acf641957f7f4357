/**
 * Judging a replay against its recording: the largest deviation of each field, in two phases
 * where the task marks a first contact (the free flight before it, the rest after), every step's
 * terminated and truncated flags, and each episode's ending (its step and kind), which must match
 * exactly whatever the tolerance.
 */
import type { ConformanceTolerance, FieldTolerance } from './contract.ts';
import type { RecordedEpisode, Replay } from './conformance.ts';

/** Largest absolute deviation of each field over some steps. */
export type FieldDeviation = FieldTolerance;

/** How an episode ended: the step (1-based) and the kind; 'running' when it stopped without either flag. */
export interface Ending {
  step: number;
  kind: 'terminated' | 'truncated' | 'running';
}

/** The largest deviation of each field over the compared steps, and the flags that disagree. */
export interface Deviation extends FieldDeviation {
  /** Steps from the first contact on, where the replay marks one (then the fields above are the free flight before it). */
  afterContact: FieldDeviation | null;
  /** Steps whose terminated or truncated flag differs (one more where an episode ends before the other). */
  flagMismatches: number;
  /** Steps compared (a replay stops at the recorded episode's end, or at our environment's). */
  steps: number;
  /** The first step (1-based) where a flag differs, or null. */
  firstFlagMismatch: number | null;
  /** Episodes whose ending (step or kind) differs; over one episode, 0 or 1. */
  endingMismatches: number;
  /** The first episode's endings that differ, recorded against ours, or null. */
  firstEndingMismatch: { recorded: Ending; ours: Ending } | null;
}

/** Where the task declares none: its port must match to rounding. */
export const DEFAULT_TOLERANCE: ConformanceTolerance = { state: 1e-9, obs: 1e-6, reward: 1e-6 };

const maxAbs = (a: readonly number[] | undefined, b: readonly number[] | undefined): number => {
  if (a === undefined || b === undefined) return 0;
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  for (let k = 0; k < a.length; k++) worst = Math.max(worst, Math.abs(a[k] - b[k]));
  return worst;
};

const worse = (a: FieldDeviation, b: FieldDeviation): FieldDeviation =>
  ({ state: Math.max(a.state, b.state), obs: Math.max(a.obs, b.obs), reward: Math.max(a.reward, b.reward) });

function endingOf(steps: ReadonlyArray<{ terminated: boolean; truncated: boolean }>): Ending {
  const last = steps[steps.length - 1];
  return { step: steps.length, kind: last?.terminated ? 'terminated' : last?.truncated ? 'truncated' : 'running' };
}

/** Compares one replay with its recording. */
export function compareEpisode(recorded: RecordedEpisode, replay: Replay): Deviation {
  const ours = replay.steps;
  const free: FieldDeviation = { state: 0, obs: maxAbs(recorded.initial_obs, replay.initialObs), reward: 0 };
  const contact: FieldDeviation | null = replay.firstContact === undefined ? null : { state: 0, obs: 0, reward: 0 };
  let flagMismatches = 0;
  let firstFlagMismatch: number | null = null;
  let steps = 0;
  const n = Math.max(recorded.steps.length, ours.length);
  for (let t = 0; t < n; t++) {
    const a = recorded.steps[t];
    const b = ours[t];
    if (a === undefined || b === undefined) {
      // One episode ended before the other: that is a flag mismatch at its last step.
      flagMismatches += 1;
      firstFlagMismatch ??= t;
      break;
    }
    steps += 1;
    const phase = contact !== null && t + 1 >= (replay.firstContact ?? Infinity) ? contact : free;
    phase.state = Math.max(phase.state, maxAbs(replay.recordedStates?.[t] ?? a.state, b.state));
    phase.obs = Math.max(phase.obs, maxAbs(a.obs, b.obs));
    phase.reward = Math.max(phase.reward, Math.abs(a.reward - b.reward));
    if (a.terminated !== b.terminated || a.truncated !== b.truncated) {
      flagMismatches += 1;
      firstFlagMismatch ??= t + 1;
    }
  }
  const endings = { recorded: endingOf(recorded.steps), ours: endingOf(ours) };
  const same = endings.recorded.step === endings.ours.step && endings.recorded.kind === endings.ours.kind;
  return {
    ...free, afterContact: contact, flagMismatches, steps, firstFlagMismatch,
    endingMismatches: same ? 0 : 1, firstEndingMismatch: same ? null : endings,
  };
}

/** The worst of several deviations. */
export function worstDeviation(all: Deviation[]): Deviation {
  return all.reduce((w, d) => ({
    ...worse(w, d),
    afterContact: w.afterContact === null ? d.afterContact : d.afterContact === null ? w.afterContact : worse(w.afterContact, d.afterContact),
    flagMismatches: w.flagMismatches + d.flagMismatches,
    steps: w.steps + d.steps,
    firstFlagMismatch: w.firstFlagMismatch ?? d.firstFlagMismatch,
    endingMismatches: w.endingMismatches + d.endingMismatches,
    firstEndingMismatch: w.firstEndingMismatch ?? d.firstEndingMismatch,
  }), { state: 0, obs: 0, reward: 0, afterContact: null, flagMismatches: 0, steps: 0, firstFlagMismatch: null, endingMismatches: 0, firstEndingMismatch: null });
}

const within = (d: FieldDeviation, t: FieldTolerance): boolean => d.state <= t.state && d.obs <= t.obs && d.reward <= t.reward;

/** Whether a deviation passes: the same flags and endings everywhere, each phase within its tolerance. */
export function withinTolerance(d: Deviation, tolerance: ConformanceTolerance): boolean {
  return d.flagMismatches === 0 && d.endingMismatches === 0 && within(d, tolerance) &&
    (d.afterContact === null || within(d.afterContact, tolerance.afterContact ?? tolerance));
}

const fields = (t: FieldTolerance): string => `state ${t.state}, observation ${t.obs}, reward ${t.reward}`;

/** "state 1e-9, observation 1e-6, reward 1e-6[; after the first contact: ...][; each step from the recorded state]". */
export function describeTolerance(t: ConformanceTolerance): string {
  return fields(t) + (t.afterContact ? `; after the first contact: ${fields(t.afterContact)}` : '') +
    (t.replayFrom === 'each-step' ? '; each step from the recorded state' : '');
}
