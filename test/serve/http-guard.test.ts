/** The checks `serve --http` makes before MCP sees a request. */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkRequest, isLoopbackHost, parseTokens } from '../../src/serve/http-guard.js';

const req = (headers: Record<string, string>): IncomingMessage => ({ headers }) as unknown as IncomingMessage;
const tokens = parseTokens(['alice=alice-secret-0123456789', 'bob=bob-secret-0123456789ab']);

describe('http guard', () => {
  it('allows loopback origins only, unless named', () => {
    const opts = { tokens: [], allowedOrigins: ['https://app.example.com'], loopbackBind: true };
    expect(checkRequest(req({ host: '127.0.0.1:8080' }), opts).ok).toBe(true);
    expect(checkRequest(req({ host: 'localhost:8080', origin: 'http://localhost:3000' }), opts).ok).toBe(true);
    expect(checkRequest(req({ host: '127.0.0.1:8080', origin: 'https://app.example.com' }), opts).ok).toBe(true);
    expect(checkRequest(req({ host: '127.0.0.1:8080', origin: 'http://evil.example' }), opts)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(checkRequest(req({ host: '127.0.0.1:8080', origin: 'null' }), opts)).toMatchObject({
      ok: false,
      status: 403,
    });
    // DNS rebinding: a foreign name resolving to 127.0.0.1 arrives with that name as Host.
    expect(checkRequest(req({ host: 'evil.example:8080' }), opts)).toMatchObject({ ok: false, status: 403 });
  });

  it('maps a valid bearer token to its subject and refuses the rest', () => {
    const opts = { tokens, allowedOrigins: [], loopbackBind: false };
    expect(checkRequest(req({ host: 'h', authorization: 'Bearer alice-secret-0123456789' }), opts)).toMatchObject({
      ok: true,
      subject: 'alice',
    });
    expect(checkRequest(req({ host: 'h', authorization: 'bearer bob-secret-0123456789ab' }), opts)).toMatchObject({
      ok: true,
      subject: 'bob',
    });
    expect(checkRequest(req({ host: 'h' }), opts)).toMatchObject({ ok: false, status: 401 });
    expect(checkRequest(req({ host: 'h', authorization: 'Bearer nope' }), opts)).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(checkRequest(req({ host: 'h', authorization: 'Basic YTpi' }), opts)).toMatchObject({
      ok: false,
      status: 401,
    });
  });

  it('parses tokens and recognizes loopback names', () => {
    expect(parseTokens(['only-one-secret-value-123']).map((t) => t.subject)).toEqual(['default']);
    expect(() => parseTokens(['u=short'])).toThrow(/shorter than 16/);
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '10.0.0.1', 'example.com'].some(isLoopbackHost)).toBe(false);
  });
});
