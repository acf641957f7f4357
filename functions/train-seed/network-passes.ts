/**
 * The networks' passes a PPO update needs: a minibatch's loss and gradient, and a rollout's values.
 * They run on the project's own wasm kernel (mlp-kernel.ts) by default, and through tfjs's ops
 * (mlp-gradient.ts) on another backend (tfjs-node) or when asked (`useEngineOps`).
 */
import type { PpoConfig } from '../../core/ppo-config.ts';
import { matrixOps, ownKernel } from './matrix-ops.ts';
import { mlpBackward, mlpForward, mlpInput, mlpOutputs } from './mlp-gradient.ts';
import { MlpKernel, mlpKernel } from './mlp-kernel.ts';
import type { Network } from './network.ts';
import { ppoLoss, type LossAndGradient, type Minibatch } from './ppo-loss.ts';

/**
 * PPO's loss on a minibatch, and its gradient with respect to theta written into grad: the actor
 * and the critic forward, the clipped losses in JS (ppo-loss.ts), both backward. The passes run on
 * the project's wasm kernel (mlp-kernel.ts) by default, through tfjs's ops otherwise (tfjs-node).
 */
export function lossAndGradient(
  net: Network, theta: Float32Array, mb: Minibatch, config: PpoConfig, grad: Float64Array, kernel: MlpKernel | null = ownKernel() ? mlpKernel() : null,
): LossAndGradient {
  grad.fill(0);
  if (kernel !== null) {
    const result = kernelLossAndGradient(net, theta, mb, config, kernel);
    kernel.addGrad(grad);
    if (result.dLogStd) grad.set(result.dLogStd, net.logStd);
    return result;
  }
  const logStd = net.continuous ? theta.subarray(net.logStd, net.logStd + net.actions) : null;
  return matrixOps().scope(() => {
    const input = mlpInput(mb.obs, mb.n, net.obsSize);
    const actor = mlpForward(net.actor, theta, input);
    const critic = mlpForward(net.critic, theta, input);
    const result = ppoLoss({ actor: actor.out, values: critic.out, logStd }, mb, net.actions, config);
    mlpBackward(actor, result.dActor, grad);
    mlpBackward(critic, result.dValues, grad);
    if (result.dLogStd) grad.set(result.dLogStd, net.logStd);
    return result;
  });
}

/** lossAndGradient on the kernel, its gradient left in the kernel's memory (for its optimizer). */
export function kernelLossAndGradient(net: Network, theta: Float32Array, mb: Minibatch, config: PpoConfig, kernel: MlpKernel): LossAndGradient {
  const logStd = net.continuous ? theta.subarray(net.logStd, net.logStd + net.actions) : null;
  kernel.load(theta, net.obsSize, mb.n, [net.actor, net.critic]);
  kernel.input(mb.obs);
  const result = ppoLoss({ actor: kernel.forward(net.actor), values: kernel.forward(net.critic), logStd }, mb, net.actions, config);
  kernel.zeroGrad();
  kernel.backward(net.actor, result.dActor);
  kernel.backward(net.critic, result.dValues);
  if (result.dLogStd) kernel.setGrad(net.logStd, result.dLogStd);
  return result;
}

/** The critic's values of n scaled observations (a whole rollout at once). */
export function criticValues(net: Network, theta: Float32Array, obs: Float32Array, n: number, kernel: MlpKernel | null): Float32Array {
  if (kernel === null) return mlpOutputs(net.critic, theta, obs, n, net.obsSize);
  kernel.load(theta, net.obsSize, n, [net.actor, net.critic]);
  kernel.input(obs);
  return Float32Array.from(kernel.forward(net.critic));
}
