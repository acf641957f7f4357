/**
 * The trained policy as a TensorFlow.js LayersModel (model.json + weights.bin), so that
 * `tf.loadLayersModel` loads it anywhere. The observation scaling (a running normalization's
 * statistic, where the task trains with one) is folded into the first layer:
 * the saved model takes the task's raw observation and returns one logit per action (discrete:
 * the greedy action is the argmax) or the Gaussian's mean action (continuous: clip it to the
 * action bounds, as the environment does).
 */
import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import type { BlobStore } from '../shared/store/blob.ts';
import type { Network } from './network.ts';

export const MODEL_JSON = 'model.json';
export const WEIGHTS_BIN = 'weights.bin';

/**
 * Builds the actor as a Sequential model with the trained weights. Where the scaled observation is
 * clipped (a running normalization's ±10), a first ReLU layer computes relu(z + c) and relu(z - c)
 * of the scaled observation z, and the first hidden layer takes their difference less c, which is
 * clip(z, -c, c): the saved model is the policy that was graded, clipping included.
 */
export function actorModel(net: Network, theta: Float32Array): tfl.Sequential {
  const model = tfl.sequential();
  const clipped = Number.isFinite(net.clip);
  const d = net.obsSize;
  if (clipped) model.add(tfl.layers.dense({ units: 2 * d, activation: 'relu', inputShape: [d], name: 'normalize' }));
  net.actor.forEach((slot, l) => {
    const last = l === net.actor.length - 1;
    model.add(tfl.layers.dense({
      units: slot.outputs,
      activation: last ? 'linear' : 'tanh',
      inputShape: l === 0 && !clipped ? [d] : undefined,
      name: last ? (net.continuous ? 'mean' : 'logits') : `hidden${l + 1}`,
    }));
  });
  const layers = net.actor.map((slot, l) => {
    const w = theta.slice(slot.w, slot.w + slot.inputs * slot.outputs);
    const b = theta.slice(slot.b, slot.b + slot.outputs);
    if (l > 0) return { w, b, rows: slot.inputs, cols: slot.outputs };
    if (clipped) return clipFirstLayer(net, w, b, slot.outputs);
    foldScaling(net, w, b, slot.outputs);
    return { w, b, rows: slot.inputs, cols: slot.outputs };
  });
  const all = clipped ? [normalizeLayer(net), ...layers] : layers;
  const weights = all.flatMap(({ w, b, rows, cols }) => [tf.tensor2d(w, [rows, cols]), tf.tensor1d(b)]);
  model.setWeights(weights);
  tf.dispose(weights);
  return model;
}

interface DenseWeights { w: Float32Array; b: Float32Array; rows: number; cols: number }

/** relu(z + c) in the first d units, relu(z - c) in the next d, z = (x - offset) / scale. */
function normalizeLayer(net: Network): DenseWeights {
  const d = net.obsSize;
  const w = new Float32Array(d * 2 * d);
  const b = new Float32Array(2 * d);
  for (let i = 0; i < d; i++) {
    w[i * 2 * d + i] = 1 / net.scale[i];
    w[i * 2 * d + d + i] = 1 / net.scale[i];
    b[i] = -net.offset[i] / net.scale[i] + net.clip;
    b[d + i] = -net.offset[i] / net.scale[i] - net.clip;
  }
  return { w, b, rows: d, cols: 2 * d };
}

/** W' = [W; -W] and b' = b - c·ΣW: the first hidden layer of clip(z) = relu(z + c) - relu(z - c) - c. */
function clipFirstLayer(net: Network, w: Float32Array, b: Float32Array, outputs: number): DenseWeights {
  const d = net.obsSize;
  const out = new Float32Array(2 * d * outputs);
  const bias = Float32Array.from(b);
  for (let i = 0; i < d; i++) {
    for (let o = 0; o < outputs; o++) {
      out[i * outputs + o] = w[i * outputs + o];
      out[(d + i) * outputs + o] = -w[i * outputs + o];
      bias[o] -= net.clip * w[i * outputs + o];
    }
  }
  return { w: out, b: bias, rows: 2 * d, cols: outputs };
}

/** x_scaled = (x - offset) / scale, so W' = W / scale (per input row) and b' = b - offset·W'. */
function foldScaling(net: Network, w: Float32Array, b: Float32Array, outputs: number): void {
  for (let i = 0; i < net.obsSize; i++) {
    for (let o = 0; o < outputs; o++) {
      w[i * outputs + o] /= net.scale[i];
      b[o] -= net.offset[i] * w[i * outputs + o];
    }
  }
}

/** Writes model.json and weights.bin under prefix, with tags for the bucket's lifecycle rules. */
export async function savePolicy(net: Network, theta: Float32Array, blobs: BlobStore, prefix: string, tags?: Record<string, string>): Promise<void> {
  const model = actorModel(net, theta);
  try {
    await model.save(tf.io.withSaveHandler(async (artifacts) => {
      const weightData = artifacts.weightData;
      if (!(weightData instanceof ArrayBuffer)) throw new Error('expected a single weights buffer');
      const modelJson = {
        format: 'layers-model',
        generatedBy: `TensorFlow.js tfjs-layers v${tfl.version_layers}`,
        convertedBy: null,
        modelTopology: artifacts.modelTopology,
        weightsManifest: [{ paths: [`./${WEIGHTS_BIN}`], weights: artifacts.weightSpecs }],
      };
      await blobs.put(`${prefix}/${MODEL_JSON}`, JSON.stringify(modelJson), 'application/json', tags);
      await blobs.put(`${prefix}/${WEIGHTS_BIN}`, new Uint8Array(weightData), 'application/octet-stream', tags);
      return { modelArtifactsInfo: { dateSaved: new Date(), modelTopologyType: 'JSON' } };
    }));
  } finally {
    model.dispose();
  }
}

/** Loads a saved policy with tf.loadLayersModel, reading the two files from the blob store. */
export async function loadPolicy(blobs: BlobStore, prefix: string): Promise<tfl.LayersModel> {
  return tfl.loadLayersModel({
    load: async () => {
      const json = await blobs.getText(`${prefix}/${MODEL_JSON}`);
      const weights = await blobs.get(`${prefix}/${WEIGHTS_BIN}`);
      if (json === undefined || weights === undefined) throw new Error(`no policy under ${prefix}`);
      const parsed = JSON.parse(json) as { modelTopology: object; weightsManifest: Array<{ weights: tf.io.WeightsManifestEntry[] }> };
      return {
        modelTopology: parsed.modelTopology,
        weightSpecs: parsed.weightsManifest.flatMap((group) => group.weights),
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) as ArrayBuffer,
      };
    },
  });
}
