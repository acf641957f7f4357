/**
 * The screen as `eureka check-reward` prints it: the verdict in words, then the figures behind them.
 * The verdict is the findings' (screen-words.ts), as the search's skip and repair decide on them.
 */
import type { Screen } from '../functions/shared/search/screen-types.ts';
import { screenFindings, type ScreenFinding } from '../functions/shared/words/screen-words.ts';

export function describeScreen(screen: Screen): string[] {
  const { bank } = screen;
  const findings = screenFindings(screen);
  // The returns of a reward of huge values are held in units of 2^returnsExponent (screen-types.ts);
  // the scales a step beside them are not, so each return says its unit.
  const exponent = screen.returnsExponent ?? 0;
  const inUnits = (value: string): string => (exponent === 0 ? value : `${value} × 2^${exponent}`);
  const lines = [
    `screen: ${verdict(findings)} on ${bank.episodes} episodes of the bank ` +
      `(${bank.successes} successes, ${bank.failures} failures, ${bank.transitions} steps${bank.stored ? '' : ', made now: no stored bank'}), ` +
      `discounted with gamma ${screen.gamma}, in ${screen.ms.toFixed(0)} ms`,
    `  AUC of the successes above the failures: ${screen.auc === null ? 'n/a' : screen.auc.toFixed(3)}`,
  ];
  for (const kind of screen.kinds) {
    const versus = kind.auc === null ? '' : `, AUC ${kind.auc.toFixed(2)}`;
    lines.push(`  ${kind.kind} ${kind.policy} (${kind.words}): ${kind.episodes} episodes, mean return ${inUnits(kind.meanReturn.toFixed(3))}${versus}`);
  }
  for (const term of screen.terms) lines.push(`  term ${term.name}: ${(term.share * 100).toFixed(1)}% of the total${term.constant ? ', the same on every step' : ''}`);
  lines.push(`  scale: ${screen.scale.meanAbsStep.toPrecision(3)} a step (the environment's own about ${screen.scale.environmentStep.toPrecision(3)}), returns spread over ${inUnits(screen.scale.returnSpread.toPrecision(3))}`);
  for (const f of findings) lines.push(`  ${f.severity === 'fails' ? 'FAILS' : 'note'}: ${f.text}`);
  return lines;
}

/** "passes", or "FAILS (<the first failing finding>)". */
function verdict(findings: ScreenFinding[]): string {
  const failing = findings.find((f) => f.severity === 'fails');
  return failing === undefined ? 'passes' : `FAILS (${failing.text})`;
}
