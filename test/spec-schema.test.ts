/**
 * A task folder's declaration, checked when it loads: here, the offline grammar's features, whose
 * mistakes would otherwise surface only as every offline candidate failing its sandbox check.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import cartPoleSpec from '../tasks/cart-pole/task.ts';
import { describeSpecIssues, TaskSpecSchema } from '../tasks/spec-schema.ts';

const withFeature = (expression: string) => TaskSpecSchema.safeParse({
  ...cartPoleSpec,
  features: [cartPoleSpec.features[0], { name: 'mine', expression, describe: 'a feature of my own' }],
});

describe('Function: a task folder\'s features, when it loads', () => {
  it('names one that does not parse, or reads past the observation, with its field', () => {
    const unparsed = withFeature('Math.min(1, Math.max(0, -s[2] / 1.5)');
    assert.equal(unparsed.success, false);
    assert.match(describeSpecIssues(unparsed.error!), /^features\.1\.expression: does not parse as a JavaScript expression over s: /);
    const past = withFeature('Math.min(1, Math.abs(s[4]) + Math.abs(s[7]))');
    assert.equal(past.success, false);
    assert.equal(describeSpecIssues(past.error!), 'features.1.expression: reads s[4], s[7], past the 4 observation entries (s) and 0 recorded ones (r)');
  });

  it('passes one that reads only what there is, whatever its value', () => {
    assert.equal(withFeature('1 - Math.min(1, Math.abs(s[3]) / 0.2)').success, true);
    assert.equal(withFeature('Math.log(s[0] - 0.5)').success, true, 'a value of -Infinity on the probe is not the folder\'s mistake');
  });
});
