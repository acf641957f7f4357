/**
 * The local answerers' factory (`command:CMD`, `files:DIR`): the search's `model` is the command
 * line or the directory, and a person in a directory has the pause's timeout to answer.
 */
import type { SearchSettings } from '../shared/search/contracts.ts';
import { commandAnswerer } from './command-answerer.ts';
import { filesAnswerer } from './files-answerer.ts';
import type { Proposer } from './proposer.ts';
import { textProposer } from './text-proposer.ts';

export function localAnswerer(settings: Pick<SearchSettings, 'proposer' | 'model' | 'feedbackTimeoutMinutes'>): Proposer {
  return textProposer(settings.proposer === 'command'
    ? commandAnswerer(settings.model)
    : filesAnswerer(settings.model, { timeoutMinutes: settings.feedbackTimeoutMinutes }));
}
