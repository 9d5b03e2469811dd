/**
 * Raw bytes in arguments and results. A `Blob` has no JSON form (`JSON.stringify` gives `{}`), so two
 * different uploads would hash alike and the second would *replay* the first (docs/concepts.md#outcomes needs the args
 * hash to change with the content). Blobs are read once, asynchronously, before the key and the args hash
 * are computed; the digest is remembered per Blob (Blobs are immutable, so it cannot go stale).
 */
import { createHash } from 'node:crypto';

export type BinaryBody = Blob | ArrayBuffer | ArrayBufferView;

export interface BlobDigest {
  sha256: string;
  size: number;
  type: string;
}

const digests = new WeakMap<Blob, BlobDigest>();

export const isBlob = (v: unknown): v is Blob => typeof Blob !== 'undefined' && v instanceof Blob;

export function isBytes(v: unknown): v is ArrayBuffer | ArrayBufferView {
  return v instanceof ArrayBuffer || ArrayBuffer.isView(v);
}

/** A view on the bytes (no copy). */
export function bytesOf(v: ArrayBuffer | ArrayBufferView): Uint8Array {
  return v instanceof ArrayBuffer ? new Uint8Array(v) : new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}

/** The digest `digestBlobs` recorded for this Blob, if any. */
export function blobDigest(blob: Blob): BlobDigest | undefined {
  return digests.get(blob);
}

/**
 * Read every Blob inside `value` (plain objects and arrays, any depth) and remember its SHA-256, so the
 * synchronous hashing in `hashArgs`/`intentKey`/`contentKey` can include its content. Generated clients call
 * this before deriving a key for a write with a binary or multipart body.
 */
export async function digestBlobs(value: unknown): Promise<void> {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (isBlob(v)) {
      if (!digests.has(v)) {
        const sha256 = createHash('sha256')
          .update(new Uint8Array(await v.arrayBuffer()))
          .digest('hex');
        digests.set(v, { sha256, size: v.size, type: v.type });
      }
    } else if (!isBytes(v)) {
      stack.push(...(Array.isArray(v) ? v : Object.values(v)));
    }
  }
}
