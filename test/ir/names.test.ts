import { describe, expect, it } from 'vitest';
import {
  assignUniqueNames,
  camelCase,
  operationBaseName,
  synthesizeOperationName,
  toolBaseName,
} from '../../src/ir/names.js';

describe('operation names', () => {
  it.each([
    ['post', '/v1/charges', 'postV1Charges'],
    ['get', '/pets/{id}', 'getPetsById'],
    ['get', '/pets/{petId}/photos', 'getPetsByPetIdPhotos'],
    ['delete', '/users/{user_id}/keys/{key-id}', 'deleteUsersByUserIdKeysByKeyId'],
    ['get', '/', 'getRoot'],
    ['get', '/admin.apps.approved.list', 'getAdminAppsApprovedList'],
    ['get', '/2010-04-01/Accounts/{AccountSid}.json', 'get20100401AccountsByAccountSidJson'],
    ['put', '/files/{path}:copy', 'putFilesByPathCopy'],
    ['patch', '/café/ünïcode', 'patchCafeUnicode'],
    ['get', '/用户/{id}', 'getById'],
  ])('%s %s → %s', (method, path, expected) => {
    expect(synthesizeOperationName(method, path)).toBe(expected);
  });

  it.each([
    ['findPets', 'findPets'],
    ['GetCustomersCustomer', 'getCustomersCustomer'],
    ['repos/get-content', 'reposGetContent'],
    ['pets.list', 'petsList'],
    ['get_user_by_ID', 'getUserById'],
    ['HTTPServerStatus', 'httpServerStatus'],
    ['delete', 'delete_'],
    ['new', 'new_'],
    ['default', 'default_'],
    ['2fa-enable', '_2faEnable'],
    ['Ärger melden', 'argerMelden'],
  ])('operationId %s → %s', (operationId, expected) => {
    expect(operationBaseName('post', '/x', operationId)).toBe(expected);
  });

  it('an operationId with nothing usable falls back to method + path', () => {
    expect(camelCase('获取用户')).toBe('');
    expect(operationBaseName('get', '/users/{id}', '获取用户')).toBe('getUsersById');
    expect(operationBaseName('get', '/users', '!!!')).toBe('getUsers');
  });

  it.each([
    ['send_email', 'send_email'],
    ['get-env', 'get_env'],
    ['github.create_issue', 'github_create_issue'],
    ['delete', 'delete_'],
    ['3d_render', '_3d_render'],
  ])('tool %s → %s', (tool, expected) => {
    expect(toolBaseName(tool)).toBe(expected);
  });

  it('assignUniqueNames suffixes in key order, independent of input order, never reusing a claimed name', () => {
    const items = [
      { key: 'POST /b', base: 'create' },
      { key: 'POST /a', base: 'create' },
      { key: 'POST /c', base: 'create2' },
      { key: 'PUT /d', base: 'create' },
    ];
    const expected = new Map([
      ['POST /a', 'create'],
      ['POST /b', 'create3'],
      ['POST /c', 'create2'],
      ['PUT /d', 'create4'],
    ]);
    expect(assignUniqueNames(items)).toEqual(expected);
    expect(assignUniqueNames([...items].reverse())).toEqual(expected);
  });
});
