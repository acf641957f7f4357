/**
 * Lambda's on-demand prices, as functions/shared/cost/pricing.ts has the model's: US dollars per
 * GB-second of duration (the first tier, 6 billion GB-seconds a month for x86, 7.5 billion for Arm)
 * and per request, from aws.amazon.com/lambda/pricing. The regions listed share one price; a
 * region not listed has no price here (its cost is null, never a guess). The free tier is left
 * out: an account's other functions may have used it.
 */

export interface LambdaPrice {
  gbSecond: { arm64: number; x86_64: number };
  request: number;
}

const STANDARD: LambdaPrice = Object.freeze({ gbSecond: Object.freeze({ arm64: 0.0000133334, x86_64: 0.0000166667 }), request: 0.2 / 1e6 });

export const LAMBDA_PRICES: Readonly<Record<string, LambdaPrice>> = Object.freeze(Object.fromEntries([
  'us-east-1', 'us-east-2', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-northeast-1', 'ap-southeast-1', 'ap-southeast-2',
].map((region) => [region, STANDARD])));

/** The region's price, or null when this table does not know it. */
export function lambdaPriceOf(region: string): LambdaPrice | null {
  return LAMBDA_PRICES[region] ?? null;
}
