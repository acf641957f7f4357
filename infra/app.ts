/**
 * The CDK app: the only place that creates an App and synthesizes. `npx cdk synth` runs it
 * (cdk.json). cdk-nag's AWS Solutions pack validates every synth; a finding that is not
 * acknowledged in the stack, with its reason, fails the synth.
 */
import { App, Validations } from 'aws-cdk-lib';
import cdkNag from 'cdk-nag';
import { DEFAULT_STACK_NAME } from './config.ts';
import { EurekaStack } from './stack.ts';

// cdk-nag is CommonJS; Node's ESM loader sees its exports only through the default import.
const { AwsSolutionsChecks } = cdkNag;

const app = new App();
new EurekaStack(app, DEFAULT_STACK_NAME, {
  description: 'Eureka-style reward search for RL on Step Functions (eureka-serverless)',
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
app.synth();
