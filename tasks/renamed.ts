/**
 * Task ids that were renamed: asked for by the old id (a flag, or a stored search resumed), the
 * error names the new one and says why, rather than only listing the known tasks. A renamed task is
 * not an alias: its words changed, so a search made under the old id is not resumed as the new one.
 */
export const RENAMED_TASKS: Readonly<Record<string, { now: string; why: string }>> = {
  'Hopper-BackFlip-v0': {
    now: 'Hopper-FrontFlip-v0',
    why: 'its success test (the torso angle reaching +2π) was always a forward turn (docs/behaviours.md, "The flip\'s direction")',
  },
};
