/**
 * What an operator looks at: the "Eureka searches" dashboard (executions; seed-run time and
 * outcomes; checks and failed candidates; model tokens and cost; each function's errors and
 * throttles) and two alarms, on failed executions and on TrainSeed throttling, sent to an SNS
 * topic with an e-mail subscription when the context sets `alarmEmail`. The search's own metrics
 * are the Powertools EMF metrics of functions/shared/ops/telemetry.ts.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { TELEMETRY } from './config.ts';

export interface SearchMonitoringProps {
  stateMachine: sfn.StateMachine;
  functions: Readonly<Record<string, lambda.IFunction>>;
  trainSeed: lambda.IFunction;
  /** Where the alarms are sent (context `alarmEmail`); none: the alarms only show in the console. */
  alarmEmail?: string;
  dashboardName: string;
}

const OUTCOMES = ['trained', 'timeout', 'memory', 'error'] as const;
const PERIOD = Duration.minutes(5);

/** One of the search's own metrics (Powertools sets the `service` dimension on each). */
function searchMetric(name: string, statistic: string, dimensions: Record<string, string> = {}, label?: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: TELEMETRY.metricsNamespace, metricName: name, statistic, period: PERIOD,
    dimensionsMap: { service: TELEMETRY.serviceName, ...dimensions }, ...(label === undefined ? {} : { label }),
  });
}

export class SearchMonitoring extends Construct {
  readonly dashboard: cloudwatch.Dashboard;
  readonly failedExecutions: cloudwatch.Alarm;
  readonly trainSeedThrottled: cloudwatch.Alarm;
  readonly topic?: sns.Topic;

  constructor(scope: Construct, id: string, props: SearchMonitoringProps) {
    super(scope, id);
    const { stateMachine } = props;
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { dashboardName: props.dashboardName, defaultInterval: Duration.days(1) });
    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({ markdown: '# Eureka searches\nExecutions, seed-runs, the model\'s tokens and cost, and each function\'s health. Logs: CloudWatch Logs Insights on the functions\' log groups, by `searchId`.', width: 24, height: 2 }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Executions', width: 8,
        left: [stateMachine.metricStarted({ period: PERIOD, label: 'started' }), stateMachine.metricSucceeded({ period: PERIOD, label: 'succeeded' }),
          stateMachine.metricFailed({ period: PERIOD, label: 'failed' }), stateMachine.metricTimedOut({ period: PERIOD, label: 'timed out' })],
      }),
      new cloudwatch.GraphWidget({
        title: 'Seed-run outcomes', width: 8, stacked: true,
        left: OUTCOMES.map((outcome) => searchMetric('SeedRuns', 'Sum', { outcome }, outcome)),
      }),
      new cloudwatch.GraphWidget({
        title: 'Seed-run time (s)', width: 8,
        left: [searchMetric('SeedRunSeconds', 'Average', { outcome: 'trained' }, 'trained, mean'), searchMetric('SeedRunSeconds', 'p90', { outcome: 'trained' }, 'trained, p90'),
          searchMetric('SeedRunSeconds', 'Maximum', { outcome: 'timeout' }, 'timed out, max')],
      }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Candidates: checks and failures', width: 8,
        left: [searchMetric('Candidates', 'Sum', {}, 'candidates'), searchMetric('CandidatesFailed', 'Sum', {}, 'did not train'),
          ...['timeout', 'memory', 'error'].map((verdict) => searchMetric('CandidateChecks', 'Sum', { verdict }, `check: ${verdict}`))],
      }),
      new cloudwatch.GraphWidget({
        title: 'Model tokens', width: 8,
        left: ['proposal', 'repair'].flatMap((request) => [searchMetric('ModelInputTokens', 'Sum', { request }, `${request} in`),
          searchMetric('ModelOutputTokens', 'Sum', { request }, `${request} out`)]),
      }),
      new cloudwatch.GraphWidget({
        title: 'Model cost (USD, estimated) and the winners', width: 8,
        left: ['proposal', 'repair'].map((request) => searchMetric('ModelCostUsd', 'Sum', { request }, `${request} cost`)),
        right: [searchMetric('WinnerFreshSuccess', 'Average', {}, 'winner fresh success')],
        rightYAxis: { min: 0, max: 1 },
      }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Lambda errors', width: 12,
        left: Object.entries(props.functions).map(([name, fn]) => fn.metricErrors({ period: PERIOD, label: name })),
      }),
      new cloudwatch.GraphWidget({
        title: 'Lambda throttles', width: 12,
        left: Object.entries(props.functions).map(([name, fn]) => fn.metricThrottles({ period: PERIOD, label: name })),
      }),
    );

    this.failedExecutions = new cloudwatch.Alarm(this, 'FailedExecutions', {
      alarmDescription: 'A search execution failed: open it in the Step Functions console (its graph shows the failing state)',
      metric: stateMachine.metricFailed({ period: PERIOD }),
      threshold: 1, evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.trainSeedThrottled = new cloudwatch.Alarm(this, 'TrainSeedThrottled', {
      alarmDescription: 'TrainSeed is throttled: seed-runs wait and retry. Lower maxConcurrency or raise the account\'s Lambda concurrency',
      metric: props.trainSeed.metricThrottles({ period: PERIOD }),
      threshold: 10, evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    if (props.alarmEmail !== undefined) {
      this.topic = new sns.Topic(this, 'AlarmTopic', { displayName: 'Eureka search alarms', enforceSSL: true });
      this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
      for (const alarm of [this.failedExecutions, this.trainSeedThrottled]) alarm.addAlarmAction(new actions.SnsAction(this.topic));
    }
    this.dashboard.addWidgets(new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: [this.failedExecutions, this.trainSeedThrottled], width: 24, height: 3 }));
  }
}
