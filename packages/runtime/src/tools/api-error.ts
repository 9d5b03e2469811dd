/**
 * The API's own error code and message out of an error body, so the model can correct its arguments
 * (a Twilio 400 "not a valid phone number" must reach it). Common shapes: `{ error: { code, message } }`
 * (Stripe, Google), `{ code, message }` (Twilio), `{ message }` (GitHub), `{ errors: [{ code, message }] }`,
 * `{ error: "text" }`, `{ error_description }` (OAuth), a plain-text body.
 */
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : undefined;

/** A body larger than this is cut: the model needs the message, not a page of HTML. */
const MAX_MESSAGE = 1000;

function fromObject(o: Obj): { code?: string; message?: string } {
  const code = text(o.code) ?? text(o.type) ?? text(o.error_code);
  const message = text(o.message) ?? text(o.detail) ?? text(o.error_description) ?? text(o.title) ?? text(o.msg);
  return { ...(code !== undefined ? { code } : {}), ...(message !== undefined ? { message } : {}) };
}

export function parseApiError(body: unknown): { code?: string; message?: string } {
  if (typeof body === 'string') return body.trim() === '' ? {} : { message: body.trim().slice(0, MAX_MESSAGE) };
  if (!isObj(body)) return {};
  if (isObj(body.error)) {
    const inner = fromObject(body.error);
    if (inner.message !== undefined || inner.code !== undefined) return inner;
  }
  if (typeof body.error === 'string') {
    const own = fromObject(body);
    return {
      code: own.code ?? body.error,
      ...(own.message !== undefined ? { message: own.message } : { message: body.error }),
    };
  }
  const own = fromObject(body);
  if (own.message !== undefined) return own;
  if (Array.isArray(body.errors) && body.errors.length > 0) {
    const parts = body.errors.map((e) => (isObj(e) ? fromObject(e) : { message: text(e) }));
    const message = parts
      .map((p) => p.message)
      .filter((m): m is string => m !== undefined)
      .join('; ')
      .slice(0, MAX_MESSAGE);
    const code = own.code ?? parts.find((p) => p.code !== undefined)?.code;
    return { ...(code !== undefined ? { code } : {}), ...(message !== '' ? { message } : {}) };
  }
  return own;
}
