import { afterEach, describe, expect, it } from 'vitest';
import { API_PATH, type Fixture, page, rejection, startFixture } from '../../support/client-fixture.js';
import { ACCOUNT, closeStrategySandboxes, strategySandbox } from '../kinds/strategy-fixture.js';

const user = (id: number) => ({
  id,
  externalId: `u-${id}`,
  email: `u-${id}@example.test`,
  firstName: 'Uma',
  lastName: `User ${id}`,
  role: 'USER',
});

describe('listUsers and listCompanies read every page at the largest page size', () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx?.close();
  });

  it.each([
    ['listUsers', '/users', user, (f: Fixture) => f.client.listUsers(7)],
    [
      'listCompanies',
      '/companies',
      (id: number) => ({ id, name: `Company ${id}` }),
      (f: Fixture) => f.client.listCompanies(7),
    ],
  ])('%s', async (_name, path, item, list) => {
    fx = await startFixture();
    fx.server.always('GET', `${API_PATH}${path}`, (request) => {
      const number = Number(request.query.get('page') ?? 0);
      return { json: page([item(number + 1)], number, 2, 2) };
    });
    expect((await list(fx)).map((found) => found.id)).toEqual([1, 2]);
    const requests = fx.apiRequests();
    expect(requests.map((r) => [r.query.get('page'), r.query.get('pageSize')])).toEqual([
      ['0', '1000'],
      ['1', '1000'],
    ]);
    expect(requests[0]?.headers['x-account-id']).toBe('7');
  });
});

describe('user helpers against the sandbox', () => {
  afterEach(closeStrategySandboxes);

  it('create, list and update a user; the account company is listed', async () => {
    const { client } = await strategySandbox();
    const [company] = await client.listCompanies(ACCOUNT);
    if (!company) throw new Error('the seed account has a company');
    const created = await client.createUser(ACCOUNT, {
      companyId: company.id,
      role: 'CONTRIBUTOR',
      externalId: 'erp-u1',
      email: 'u1@example.test',
      firstName: 'Uma',
      lastName: 'One',
      language: 'en-US',
    });
    expect(created).toMatchObject({ externalId: 'erp-u1', role: 'CONTRIBUTOR', language: 'en-US' });
    const listed = await client.listUsers(ACCOUNT);
    expect(listed.map((u) => u.externalId).sort()).toEqual(['demo-admin', 'erp-u1']);
    const updated = await client.updateUser(ACCOUNT, created.id, { lastName: 'Uno' });
    expect(updated).toMatchObject({ id: created.id, firstName: 'Uma', lastName: 'Uno' });
  });

  it('a second create of the externalId or the email is refused with the service code', async () => {
    const { client } = await strategySandbox();
    const [company] = await client.listCompanies(ACCOUNT);
    const body = {
      companyId: company?.id ?? 0,
      role: 'USER' as const,
      externalId: 'erp-u2',
      email: 'u2@example.test',
      firstName: 'Uma',
      lastName: 'Two',
    };
    await client.createUser(ACCOUNT, body);
    const sameId = await rejection(client.createUser(ACCOUNT, { ...body, email: 'other@example.test' }));
    expect(sameId).toMatchObject({ status: 409, serviceCode: 'USER_EXTERNAL_ID_ALREADY_EXISTS' });
    const sameEmail = await rejection(client.createUser(ACCOUNT, { ...body, externalId: 'erp-u3' }));
    expect(sameEmail).toMatchObject({ status: 409, serviceCode: 'USER_EMAIL_ALREADY_EXISTS' });
  });

  it('the subscription limit is refused with MAX_USERS_REACHED', async () => {
    const { client } = await strategySandbox();
    const [company] = await client.listCompanies(ACCOUNT);
    const create = (i: number) =>
      client.createUser(ACCOUNT, {
        companyId: company?.id ?? 0,
        role: 'USER',
        externalId: `erp-max-${i}`,
        email: `max-${i}@example.test`,
        firstName: 'Max',
        lastName: `${i}`,
      });
    // The seed account has its admin and room for 5 users.
    for (const i of [1, 2, 3, 4]) await create(i);
    expect(await rejection(create(5))).toMatchObject({ status: 400, serviceCode: 'MAX_USERS_REACHED' });
  });
});
