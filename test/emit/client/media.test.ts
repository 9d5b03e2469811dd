/** How the client and the tool runtime encode a request body, by its media type and schema. */
import { describe, expect, it } from 'vitest';
import { encodingOf, pickRequestContent } from '../../../src/emit/media.js';

describe('encodingOf', () => {
  it('a string schema under a media type of its own is sent as that text, not JSON-quoted', () => {
    expect(encodingOf('application/sdp', { type: 'string' })).toBe('text');
    expect(encodingOf('application/jwt', { type: 'string' })).toBe('text');
    expect(encodingOf('application/xml', { type: 'string' })).toBe('text');
    expect(encodingOf('application/vnd.api+json', { type: 'string' })).toBe('json');
    expect(encodingOf('application/sdp', { type: 'object' })).toBe('json');
  });

  it('OpenAI /realtime/calls (multipart or application/sdp): the multipart form is the one sent', () => {
    const picked = pickRequestContent([
      { mediaType: 'multipart/form-data', schema: { type: 'object' }, pointer: '/a' },
      { mediaType: 'application/sdp', schema: { type: 'string' }, pointer: '/b' },
    ]);
    expect(picked?.encoding).toBe('multipart');
  });
});
