/**
 * Written gaits for Go1-Walk-v0's bank and tests: open-loop trots (diagonal legs together, no
 * feedback) in the task's actions (each ±1 moves a servo's target ±0.5 rad about the standing pose).
 * In a stance half-cycle the hip joint swings the foot back (its angle grows); in the swing half the
 * foot comes forward with the knee bent to lift it.
 */
import type { BankPolicy } from '../contract.ts';

export interface Trot {
  /** Steps per cycle (0.02 s a step). */
  period: number;
  /** Hip-joint swing, in actions (±). */
  stride: number;
  /** Extra knee bend in swing, in actions. */
  lift: number;
}

/** FR, FL, RR, RL: FR with RL, FL with RR. */
const PHASE = [0, Math.PI, Math.PI, 0];

/** The twelve actions of a trot at step t (abduction, hip, knee per leg, in the XML's order). */
export function trot(t: number, { period, stride, lift }: Trot): number[] {
  return PHASE.flatMap((offset) => {
    const phase = (2 * Math.PI * t) / period + offset;
    // The hip angle grows (the foot goes back) while sin > 0, the stance; it shrinks in swing, when the knee lifts.
    const hip = -stride * Math.cos(phase);
    const knee = -lift * Math.max(0, -Math.sin(phase));
    return [0, hip, knee];
  });
}

/** 0.32 s a cycle: about 5.3 m in the 10 s (seeds 3 and 4), past the 5 m success line. */
export const TROT: Trot = { period: 16, stride: 0.4, lift: 0.6 };
/** The same stride over 0.4 s: about 4.2 m, a walk that nearly does it. */
export const SLOW_TROT: Trot = { period: 20, stride: 0.4, lift: 0.6 };

const playing = (gait: Trot) => (_obs: Float32Array, t: number) => trot(t, gait);

// Two episodes of each failing gait, four of the trot: every process that screens a reward replays the bank (about 1,700 steps a
// second here), and the failing gaits differ little from start to start.
export const GO1_GAITS: readonly BankPolicy[] = [
  { name: 'trot', kind: 'success', words: 'a written open-loop trot (no feedback) that walks about 5.3 m', act: playing(TROT) },
  { name: 'slow-trot', kind: 'failure', words: 'the written trot at a slower beat: about 4.2 m, short of 5 m', episodes: 2, act: playing(SLOW_TROT) },
  { name: 'trot-in-place', kind: 'failure', words: 'trotting in place: the legs step, the trunk stays', episodes: 2, act: playing({ ...TROT, stride: 0 }) },
  { name: 'trot-backwards', kind: 'failure', words: 'the written trot played backwards: about 5.5 m along -x', episodes: 2, act: playing({ ...TROT, stride: -TROT.stride }) },
];
