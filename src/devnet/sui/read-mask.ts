/**
 * `google.protobuf.FieldMask` read masks as the Sui node applies them: snake_case dotted paths,
 * a path naming a message includes all of it, unrequested fields come back unset, an unknown path is
 * INVALID_ARGUMENT, and an absent or empty mask means the method's default mask.
 */
import { GrpcCode, GrpcError } from './grpc-status.ts';
import type { FieldInfo, MessageType } from './proto.ts';

const ALL = Symbol('all');

/** A parsed mask: each key is a field name, mapped to a sub-mask or to "the whole field". */
export type MaskTree = Map<string, MaskTree | typeof ALL>;

/** Default read masks of the Sui node (sui-rpc-api `read_mask_defaults`). */
export const DEFAULT_MASKS = {
  transaction: 'digest',
  checkpoint: 'sequence_number,digest',
  epoch:
    'epoch,first_checkpoint,last_checkpoint,start,end,reference_gas_price,protocol_config.protocol_version',
  object: 'object_id,version,digest',
  ownedObject: 'object_id,version,object_type',
  executeTransaction: 'transaction.digest,transaction.effects',
} as const;

/**
 * Parses and validates the paths of a read mask against a message type. Empty or absent paths give
 * the default. Throws INVALID_ARGUMENT for a path that names no field.
 */
export function parseReadMask(
  type: MessageType,
  mask: { paths: readonly string[] } | undefined,
  defaults: string,
): MaskTree {
  const paths = mask && mask.paths.length > 0 ? mask.paths : defaults.split(',');
  const tree: MaskTree = new Map();
  for (const path of paths) {
    if (path === '*') {
      for (const f of type.fields) tree.set(f.name, ALL);
      continue;
    }
    let node = tree;
    let current: MessageType | undefined = type;
    const parts = path.split('.');
    for (const [i, part] of parts.entries()) {
      const field: FieldInfo | undefined = current?.fields.find((f) => f.name === part);
      if (!current || !field) {
        throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `invalid read_mask path: ${path}`);
      }
      const last = i === parts.length - 1;
      const existing = node.get(part);
      if (existing === ALL) break;
      if (last) {
        node.set(part, ALL);
        break;
      }
      if (field.kind !== 'message') {
        throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `invalid read_mask path: ${path}`);
      }
      const next: MaskTree = existing ?? new Map();
      node.set(part, next);
      node = next;
      current = field.T();
    }
  }
  return tree;
}

/** A copy of `message` holding only the masked fields (the others at their protobuf defaults). */
export function applyReadMask<T extends object>(type: MessageType, message: T, tree: MaskTree): T {
  const out = type.create() as Record<string, unknown>;
  const source = message as Record<string, unknown>;
  for (const [name, sub] of tree) {
    const field = type.fields.find((f) => f.name === name);
    if (!field) continue;
    const project = (value: unknown): unknown =>
      sub === ALL || field.kind !== 'message' || value === undefined
        ? value
        : applyReadMask(field.T(), value as object, sub);
    if (field.oneof) {
      const group = source[field.oneof] as { oneofKind?: string; [k: string]: unknown } | undefined;
      if (group?.oneofKind !== field.localName) continue;
      out[field.oneof] = { oneofKind: field.localName, [field.localName]: project(group[field.localName]) };
      continue;
    }
    const value = source[field.localName];
    if (value === undefined) continue;
    out[field.localName] =
      field.kind === 'message' && field.repeat ? (value as unknown[]).map(project) : project(value);
  }
  return out as T;
}

/** Parses then applies a mask in one step. */
export function masked<T extends object>(
  type: MessageType,
  message: T,
  mask: { paths: readonly string[] } | undefined,
  defaults: string,
): T {
  return applyReadMask(type, message, parseReadMask(type, mask, defaults));
}
