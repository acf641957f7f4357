/**
 * The LunarLanders' ways to succeed and to fail, for the screen's bank (tasks/bank.ts): Gymnasium's
 * heuristic lander lands; doing nothing falls and crashes; a main engine held open flies off the
 * screen; an orientation engine held open tumbles into the ground; the heuristic with a fixed
 * target height hovers there until the 1,000-step limit. Measured on seeds 7000-7005 before they
 * were chosen: the heuristic landed 6 of 6 (returns 247-305), hovering held 0.7 to the limit
 * (returns -41 to -83), each other ended in a crash or off the screen.
 */
import type { BankDeclaration, BankPolicy } from '../contract.ts';
import { heuristicContinuous, heuristicDiscrete } from './heuristic.ts';

/** The height the hovering lander holds (the observation's y; the pad is at 0, the start at 1.4). */
const HOVER_HEIGHT = 0.7;

/** The actions of a variant: the heuristic's, and the engines held open. */
interface Controls {
  land(s: Float32Array): number | readonly number[];
  hover(s: Float32Array): number | readonly number[];
  mainEngine: number | readonly number[];
  sideEngine: number | readonly number[];
}

const CONTROLS: Record<'discrete' | 'continuous', Controls> = {
  discrete: { land: (s) => heuristicDiscrete(s), hover: (s) => heuristicDiscrete(s, HOVER_HEIGHT), mainEngine: 2, sideEngine: 1 },
  continuous: { land: (s) => heuristicContinuous(s), hover: (s) => heuristicContinuous(s, HOVER_HEIGHT), mainEngine: [1, 0], sideEngine: [-1, -1] },
};

export function bankDeclaration(variant: 'discrete' | 'continuous'): BankDeclaration {
  const c = CONTROLS[variant];
  const policies: BankPolicy[] = [
    { name: 'heuristic', kind: 'success', words: 'landing as Gymnasium\'s heuristic lander does', episodes: 6, act: c.land },
    { name: 'nothing', kind: 'failure', words: 'doing nothing until it crashes', act: () => neutral(variant) },
    { name: 'hover', kind: 'failure', words: 'hovering to the time limit', episodes: 2, act: c.hover },
    { name: 'fly-away', kind: 'failure', words: 'flying off the screen', act: () => c.mainEngine },
    { name: 'tumble', kind: 'failure', words: 'tumbling into the ground', act: () => c.sideEngine },
  ];
  return { successWords: 'landing', policies };
}

function neutral(variant: 'discrete' | 'continuous'): number | readonly number[] {
  return variant === 'discrete' ? 0 : [0, 0];
}
