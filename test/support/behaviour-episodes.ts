/** What the behaviours' tests play and replay: the bank's episode makers, and a task's stored bank by id. */
import { getTask } from '../../tasks/registry.ts';
import { readStoredBank } from '../../tasks/bank-file.ts';
import type { Bank } from '../../tasks/bank.ts';

export { playEpisode, replayEpisode, type BankEpisode } from '../../tasks/bank.ts';

/** A task's stored bank (its environment must be prepared: the bank replays from it). */
export function readStoredBankOf(id: string): Bank {
  const bank = readStoredBank(getTask(id));
  if (bank === undefined) throw new Error(`${id} has no stored bank`);
  return bank;
}
