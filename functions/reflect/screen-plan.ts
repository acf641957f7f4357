/**
 * What the screen decides at "Plan the seed-runs" (issue 24), from the checks' stored screens:
 * - the order the passed candidates train in, highest AUC first (the race's first rung, and the
 *   order a Distributed Map under its concurrency starts them);
 * - screen: "skip": a candidate that fails the screen never trains;
 * - screen: "repair": one that failed it and whose repair passed its check gives its place to it;
 * - two that pay the same on the whole bank (to 1e-9) are one: the first trains, the other is its twin.
 * Stored as screen-plan.json, so Reflect shows why each one it did not train did not.
 */
import type { ScreenMode } from '../shared/search/contracts.ts';
import { checkKey, screenPlanKey } from '../shared/store/keys.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import type { Screen } from '../shared/search/screen-types.ts';
import { failsScreen, sameOnBank, screenLine } from '../shared/words/screen-words.ts';
import type { CheckRecord } from '../shared/search/types.ts';

export interface ScreenPlan {
  /** The candidates that train, in order. */
  train: string[];
  /** Not trained: skipped by the screen, replaced by their repair, or the twin of one that trains. */
  notTrained: Array<{ candidateId: string; why: 'skipped' | 'replaced' | 'twin'; of?: string; words: string }>;
}

export async function screenPlan(store: SearchStore, searchId: string, generation: number, passed: string[], mode: ScreenMode): Promise<ScreenPlan> {
  const screens = new Map(await Promise.all(passed.map(async (id) => [id, await storedScreen(store, searchId, generation, id)] as const)));
  const repairs = (await store.answer(searchId, generation, 'repair'))?.candidates ?? [];
  const repairOf = new Map(repairs.flatMap((c) => (c.repairOf === undefined ? [] : [[c.repairOf, c.candidateId] as const])));
  const plan = decide(passed, screens, mode, repairOf);
  await store.blobs.put(screenPlanKey(searchId, generation), JSON.stringify(plan), 'application/json');
  return plan;
}

/**
 * The decision itself, from each passed candidate's screen (null: none stored, e.g. a check made
 * before the screen) and which candidate repairs which.
 */
export function decide(passed: string[], screens: Map<string, Screen | null>, mode: ScreenMode, repairOf: Map<string, string> = new Map()): ScreenPlan {
  const notTrained: ScreenPlan['notTrained'] = [];
  const aucOf = (id: string) => screens.get(id)?.auc ?? -1;
  const order = [...passed].sort((a, b) => aucOf(b) - aucOf(a));
  const kept: string[] = [];
  for (const id of order) {
    const screen = screens.get(id) ?? null;
    const fails = screen !== null && failsScreen(screen);
    if (fails && mode === 'skip') {
      notTrained.push({ candidateId: id, why: 'skipped', words: screenLine(screen) });
      continue;
    }
    const repair = repairOf.get(id);
    if (fails && mode === 'repair' && repair !== undefined && passed.includes(repair)) {
      notTrained.push({ candidateId: id, why: 'replaced', of: repair, words: screenLine(screen) });
      continue;
    }
    const twin = screen === null ? undefined : kept.find((k) => { const other = screens.get(k); return other != null && sameOnBank(other, screen); });
    if (twin !== undefined) {
      notTrained.push({ candidateId: id, why: 'twin', of: twin, words: 'pays the same as it on every episode of the bank (to 1e-9)' });
      continue;
    }
    kept.push(id);
  }
  return { train: kept, notTrained };
}

/** The screen stored with a candidate's check.json; null without one (no check, or one made before the screen). */
export async function storedScreen(store: SearchStore, searchId: string, generation: number, candidateId: string): Promise<Screen | null> {
  const text = await store.blobs.getText(checkKey(searchId, generation, candidateId));
  return text === undefined ? null : ((JSON.parse(text) as CheckRecord).screen ?? null);
}

export async function loadScreenPlan(store: SearchStore, searchId: string, generation: number): Promise<ScreenPlan | null> {
  const text = await store.blobs.getText(screenPlanKey(searchId, generation));
  return text === undefined ? null : (JSON.parse(text) as ScreenPlan);
}
