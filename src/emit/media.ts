/**
 * How a request or response body travels: decides the TypeScript type of the body and the encoding the
 * runtime's HTTP layer applies (JSON, Stripe-style nested form-urlencoding, multipart, raw bytes, text).
 */
import type { JsonSchema, MediaContent, ResponseSpec } from '../ir/types.js';

export type BodyEncoding = 'json' | 'form' | 'multipart' | 'text' | 'binary';
type ResponseParse = 'json' | 'text' | 'blob' | 'void';

export function encodingOf(mediaType: string, schema?: JsonSchema): BodyEncoding {
  const m = mediaType.toLowerCase();
  if (m.includes('json')) return 'json';
  if (m.startsWith('application/x-www-form-urlencoded')) return 'form';
  if (m.startsWith('multipart/')) return 'multipart';
  if (m.startsWith('text/')) return 'text';
  const s = typeof schema === 'object' ? schema : undefined;
  if (/^(application\/(octet-stream|pdf|zip)|image\/|audio\/|video\/)/.test(m) || s?.format === 'binary') {
    return 'binary';
  }
  // Any other media type (`application/sdp`, `application/jwt`, XML, `*/*`) with a string schema is that text
  // as it is: JSON would quote it. An object schema under an unknown type stays JSON, the nearest reading.
  return s?.type === 'string' ? 'text' : 'json';
}

const PREFERENCE: BodyEncoding[] = ['json', 'form', 'multipart', 'binary', 'text'];

/** The one media type a client sends: JSON first (it round-trips every schema), then form, multipart, raw. */
export function pickRequestContent(
  content: MediaContent[],
): { media: MediaContent; encoding: BodyEncoding } | undefined {
  let best: { media: MediaContent; encoding: BodyEncoding } | undefined;
  for (const media of content) {
    const encoding = encodingOf(media.mediaType, media.schema);
    if (best === undefined || PREFERENCE.indexOf(encoding) < PREFERENCE.indexOf(best.encoding))
      best = { media, encoding };
  }
  return best;
}

export interface ResponseShape {
  parse: ResponseParse;
  /** Schemas of the success bodies (one per status that has one); empty = no body. */
  bodies: { media: MediaContent; parse: ResponseParse }[];
  /** A success status without a body exists (204 and friends). */
  hasEmpty: boolean;
}

/** Success responses (2xx / 2XX; `default` only when no 2xx is declared). */
export function successResponses(responses: ResponseSpec[]): ResponseSpec[] {
  const ok = responses.filter((r) => /^2/.test(r.status));
  return ok.length > 0 ? ok : responses.filter((r) => r.status === 'default');
}

/**
 * Shapes by response list: the client's types and the operation record (once for the client, once for the
 * tool bindings) ask for the same operation's shape. IR response lists are not edited after the IR is built,
 * and callers only read a shape.
 */
const SHAPES = new WeakMap<ResponseSpec[], ResponseShape>();

export function responseShape(responses: ResponseSpec[]): ResponseShape {
  let shape = SHAPES.get(responses);
  if (shape === undefined) {
    shape = shapeOf(responses);
    SHAPES.set(responses, shape);
  }
  return shape;
}

function shapeOf(responses: ResponseSpec[]): ResponseShape {
  const bodies: ResponseShape['bodies'] = [];
  let hasEmpty = false;
  for (const r of successResponses(responses)) {
    const picked = pickResponseContent(r.content);
    if (picked === undefined) hasEmpty = true;
    else bodies.push(picked);
  }
  const parse: ResponseParse = bodies[0]?.parse ?? 'void';
  return { parse, bodies, hasEmpty };
}

/** Error responses: every status but 2xx, and `default` unless it stands for success (no 2xx declared). */
export function errorResponses(responses: ResponseSpec[]): ResponseSpec[] {
  const ok = new Set(successResponses(responses));
  return responses.filter((r) => !ok.has(r) && !/^2/.test(r.status));
}

export function pickResponseContent(
  content: MediaContent[],
): { media: MediaContent; parse: ResponseParse } | undefined {
  let best: { media: MediaContent; parse: ResponseParse } | undefined;
  const rank: ResponseParse[] = ['json', 'blob', 'text'];
  for (const media of content) {
    const enc = encodingOf(media.mediaType, media.schema);
    const parse: ResponseParse = enc === 'json' ? 'json' : enc === 'text' ? 'text' : enc === 'binary' ? 'blob' : 'text';
    if (best === undefined || rank.indexOf(parse) < rank.indexOf(best.parse)) best = { media, parse };
  }
  return best;
}

/**
 * The kind the runtime must read a success body as, when every success body agrees on text or bytes: the
 * generated type (`string` / `Blob`) then holds whatever content type the server labels the answer with.
 */
export function pinnedResponseType(shape: ResponseShape): 'text' | 'blob' | undefined {
  const kinds = new Set(shape.bodies.map((b) => b.parse));
  if (kinds.size !== 1) return undefined;
  const [kind] = kinds;
  return kind === 'text' || kind === 'blob' ? kind : undefined;
}
