import type { Company, User } from '../../contract/index.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import type { ChunkContext } from '../../sync/ports.js';

/**
 * The account's users as one chunk sees them. The API finds a user only by listing the account's
 * users (no lookup by externalId), so the list is read once per chunk and again only after an
 * ambiguous write or a conflict, when the service may hold more than the chunk saw.
 */
export class UserDirectory {
  #users: readonly User[] = [];
  #company: Promise<number | OutcomeFields> | undefined;

  private constructor(private readonly ctx: ChunkContext) {}

  static async read(ctx: ChunkContext): Promise<UserDirectory> {
    const directory = new UserDirectory(ctx);
    await directory.#list();
    return directory;
  }

  /** The user with the externalId (unique within an account: the service refuses a second one). */
  find(externalId: string): User | undefined {
    return this.#users.find((user) => user.externalId === externalId);
  }

  withEmail(email: string): User | undefined {
    const wanted = email.toLowerCase();
    return this.#users.find((user) => user.email.toLowerCase() === wanted);
  }

  /** Lists the users again and finds the externalId in the fresh list. */
  async refind(externalId: string): Promise<User | undefined> {
    await this.#list();
    return this.find(externalId);
  }

  /**
   * The company a user whose record names none joins: the account's only company, listed once per
   * chunk. With none or several the record is rejected: which one is meant is the feed's to say.
   */
  company(): Promise<number | OutcomeFields> {
    this.#company ??= this.ctx.client
      .listCompanies(this.ctx.accountId, { signal: this.ctx.signal })
      .then((companies) => onlyCompany(companies, this.ctx.accountId));
    return this.#company;
  }

  async #list(): Promise<void> {
    this.#users = await this.ctx.client.listUsers(this.ctx.accountId, { signal: this.ctx.signal });
  }
}

function onlyCompany(companies: readonly Company[], accountId: number): number | OutcomeFields {
  const [only] = companies;
  if (only && companies.length === 1) return only.id;
  return {
    outcome: 'rejected',
    code: 'AMBIGUOUS_COMPANY',
    message: `account ${accountId} has ${companies.length} companies (ids ${companies.map((c) => c.id).join(', ') || 'none'}) and the record names none: map companyId to the company the user belongs to`,
  };
}
