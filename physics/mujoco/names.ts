/**
 * An object's name as the XML gave it, read from the model's `names` buffer at its `name_*adr`
 * ("" for an unnamed one: a Menagerie `<freejoint/>`). Not `mj_id2name`: for an unnamed object the
 * bindings turn its NULL into whatever string the module's memory holds there.
 */
import type { MjModel } from './engine.ts';

export type NamedKind = 'body' | 'jnt' | 'geom' | 'site' | 'actuator' | 'sensor' | 'key';

export function objectName(model: MjModel, kind: NamedKind, id: number): string {
  const adr = (model[`name_${kind}adr`] as Int32Array)[id];
  const names = model.names as Int8Array;
  let end = adr;
  while (end < names.length && names[end] !== 0) end++;
  return Buffer.from(names.buffer, names.byteOffset + adr, end - adr).toString('utf8');
}
